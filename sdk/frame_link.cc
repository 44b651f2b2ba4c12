#include "sdk/frame_link.h"

#include <array>
#include <cstring>
#include <vector>

#include "protocol/frame_coalescing.h"

namespace drift {

FrameLink::FrameLink(Socket socket, std::uint16_t version, std::uint32_t max_body)
    : socket_(std::move(socket)),
      version_(version),
      max_body_(max_body),
      read_buf_(kReadBufferBytes) {
  std::error_code ec;
  socket_.non_blocking(true, ec);  // write_next() writes at once; it must never wait
}

void FrameLink::start(Handlers handlers) {
  handlers_ = std::move(handlers);
  read_more();
}

void FrameLink::send(Frame frame, bool bulk) {
  if (closed_) return;
  queued_bytes_ += frame.size();
  (bulk ? bulk_queue_ : write_queue_).push_back(std::move(frame));
  schedule_write();
}

void FrameLink::send_all(std::vector<Frame> frames) {
  if (closed_) return;
  for (Frame& f : frames) {
    queued_bytes_ += f.size();
    write_queue_.push_back(std::move(f));
  }
  schedule_write();
}

// The write waits for the end of what the thread is doing: every frame queued meanwhile (the
// effects of a burst of handlers, the messages a batch of frames read made) goes in the same
// gathered write, one system call instead of one each.
void FrameLink::schedule_write() {
  if (write_posted_) return;
  write_posted_ = true;
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    self->write_posted_ = false;
    self->write_next();
  });
}

namespace {

// At most this many frames go in one gathered write (two buffers each): Asio's socket writes take
// at most 64 buffers, and a write_some handed more takes only those, so that the rest went by
// async_write, 16 buffers per system call and a trip through the event loop between two (a
// burst of 500 reports crossed in 30 pieces, each waking the reader).
constexpr std::size_t kGather = 32;

// The buffers of `frames`, the first `offset` bytes left out.
std::vector<asio::const_buffer> buffers_of(const std::vector<Frame>& frames, std::size_t offset) {
  std::vector<asio::const_buffer> out;
  for (const Frame& f : frames) {
    for (asio::const_buffer b : {f.head ? asio::buffer(*f.head) : asio::const_buffer(),
                                 asio::buffer(f.tail.data(), f.tail.size())}) {
      if (offset >= b.size()) {
        offset -= b.size();
        continue;
      }
      out.push_back(b + offset);
      offset = 0;
    }
  }
  return out;
}

std::size_t total_size(const std::vector<Frame>& frames) {
  std::size_t n = 0;
  for (const Frame& f : frames) n += f.size();
  return n;
}

}  // namespace

// Writes what is queued at once, ordinary frames first and together, while the socket takes it;
// what it does not take whole is finished by async_write, and the queue waits for it.
void FrameLink::write_next() {
  while (!writing_ && !closed_) {
    const bool ordinary = !write_queue_.empty();
    auto& queue = ordinary ? write_queue_ : bulk_queue_;
    if (queue.empty()) return;
    in_flight_.clear();
    do {
      if (ordinary) {
        in_flight_.push_back(take_coalesced(queue));  // small frames copied together
      } else {
        in_flight_.push_back(std::move(queue.front()));
        queue.pop_front();
      }
    } while (ordinary && !queue.empty() && in_flight_.size() < kGather);
    const std::size_t size = total_size(in_flight_);
    std::error_code ec;
    const std::size_t written = socket_.write_some(buffers_of(in_flight_, 0), ec);
    if (ec && ec != asio::error::would_block && ec != asio::error::try_again) {
      in_flight_.clear();
      return close("write failed: " + ec.message());
    }
    if (!ec && written == size) {
      queued_bytes_ -= size;
      in_flight_.clear();
      continue;
    }
    writing_ = true;
    auto self = shared_from_this();
    asio::async_write(socket_, buffers_of(in_flight_, ec ? 0 : written),
                      [self, size](std::error_code e, std::size_t) {
                        self->writing_ = false;
                        self->queued_bytes_ -= size;
                        self->in_flight_.clear();
                        if (self->closed_) return;
                        if (e) return self->close("write failed: " + e.message());
                        self->write_next();
                      });
  }
}

void FrameLink::close(const std::string& reason) {
  if (closed_) return;
  if (write_posted_ && !writing_) {
    // What was queued just before (a last answer): given to the socket as far as it takes it now,
    // as it was when frames were written at once. Errors do not matter any more.
    std::vector<Frame> last;
    while (!write_queue_.empty() && last.size() < kGather) {
      last.push_back(std::move(write_queue_.front()));
      write_queue_.pop_front();
    }
    std::error_code ignored;
    if (!last.empty()) socket_.write_some(buffers_of(last, 0), ignored);
  }
  write_posted_ = false;
  closed_ = true;
  std::error_code ignored;
  socket_.shutdown(Socket::shutdown_both, ignored);
  socket_.close(ignored);
  write_queue_.clear();  // in_flight_ stays until its aborted write completes
  bulk_queue_.clear();
  auto closed = std::move(handlers_.closed);
  handlers_ = Handlers{};
  if (closed) closed(reason);
}

void FrameLink::read_more() {
  if (closed_) return;
  if (read_begin_ == read_end_) {
    read_begin_ = read_end_ = 0;
  } else if (read_begin_ > 0) {  // keep the start of the next frame at the front
    std::memmove(read_buf_.data(), read_buf_.data() + read_begin_, read_end_ - read_begin_);
    read_end_ -= read_begin_;
    read_begin_ = 0;
  }
  auto self = shared_from_this();
  socket_.async_read_some(
      asio::buffer(read_buf_.data() + read_end_, read_buf_.size() - read_end_),
      [self](std::error_code ec, std::size_t n) {
        if (ec) {
          const bool in_frame = self->read_end_ > self->read_begin_;
          if (ec == asio::error::eof && !in_frame) return self->close("closed by the other end");
          return self->close(in_frame ? "lost in a frame: " + ec.message() : ec.message());
        }
        self->read_end_ += n;
        self->parse_frames();
      });
}

void FrameLink::parse_frames() {
  auto self = shared_from_this();  // a handler may close the link
  while (!closed_ && read_end_ - read_begin_ >= kFrameHeaderSize) {
    const auto header_bytes =
        std::span<const std::uint8_t, kFrameHeaderSize>(read_buf_.data() + read_begin_,
                                                        kFrameHeaderSize);
    Result<FrameHeader> header = decode_header(header_bytes, max_body_, version_);
    if (!header) return close("bad frame: " + header.error());
    const std::size_t frame_size = kFrameHeaderSize + header->length;
    const std::size_t available = read_end_ - read_begin_;
    if (frame_size > read_buf_.size()) {
      const std::size_t head = worker_head_bytes(header->type);
      if (head == 0) {
        read_begin_ += kFrameHeaderSize;
        return read_large_body(*header);
      }
      if (available < kFrameHeaderSize + head) break;  // its head comes into the buffer first
      read_begin_ += kFrameHeaderSize;
      return read_tail(*header, head);
    }
    if (available < frame_size) break;
    const std::span<const std::uint8_t> body(read_buf_.data() + read_begin_ + kFrameHeaderSize,
                                             header->length);
    read_begin_ += frame_size;
    handlers_.message(decode_worker_body(header->type, body));
  }
  read_more();
}

// The body's first bytes are already in read_buf_; the rest is read straight into its buffer.
void FrameLink::read_large_body(const FrameHeader& header) {
  const std::size_t have = read_end_ - read_begin_;
  large_body_.resize(header.length);
  std::memcpy(large_body_.data(), read_buf_.data() + read_begin_, have);
  read_begin_ = read_end_ = 0;
  auto self = shared_from_this();
  asio::async_read(socket_, asio::buffer(large_body_.data() + have, header.length - have),
                   [self, header](std::error_code ec, std::size_t) {
                     if (self->closed_) return;
                     if (ec) return self->close("lost in a frame: " + ec.message());
                     std::vector<std::uint8_t> body = std::move(self->large_body_);
                     self->large_body_.clear();
                     self->handlers_.message(decode_worker_body(header.type, body));
                     self->parse_frames();
                   });
}

// A large message with a tail vector: its head is decoded from read_buf_, what the buffer holds
// of the vector copied in, and the rest read straight into the vector.
void FrameLink::read_tail(const FrameHeader& header, std::size_t head_bytes) {
  Result<WorkerMessage> msg = decode_worker_head(
      header.type, std::span<const std::uint8_t>(read_buf_.data() + read_begin_, head_bytes),
      header.length);
  if (!msg) return close("bad frame: " + msg.error());
  read_begin_ += head_bytes;
  large_message_ = std::move(*msg);
  std::vector<std::uint8_t>& tail = worker_tail(large_message_);
  const std::size_t have = std::min(read_end_ - read_begin_, tail.size());
  std::memcpy(tail.data(), read_buf_.data() + read_begin_, have);
  read_begin_ += have;  // the buffer holds no more than this frame: it was larger than the buffer
  auto self = shared_from_this();
  asio::async_read(socket_, asio::buffer(tail.data() + have, tail.size() - have),
                   [self](std::error_code ec, std::size_t) {
                     if (self->closed_) return;
                     if (ec) return self->close("lost in a frame: " + ec.message());
                     self->handlers_.message(std::move(self->large_message_));
                     self->parse_frames();
                   });
}

}  // namespace drift
