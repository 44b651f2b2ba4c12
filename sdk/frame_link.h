// One end of a daemon <-> worker socket (a Unix stream socket; protocol/worker_messages.h), used
// by both ends: a read loop that hands over every message decoded (header checked against the
// version and the largest body allowed, so a bad peer cannot make it allocate more; a large
// message's payload or state bytes read straight into the message's own vector), and a write
// queue with at most one async_write in flight. Frames are written once the thread is done with
// what it is doing, all that were queued meanwhile in one gathered write; bulk frames (state
// pieces) go out only when no ordinary frame waits, so a large state never holds back a task's
// messages by more than one piece. Runs on one io_context
// thread; keeps itself alive with shared_from_this() while reads or writes are pending.
#pragma once

#include <asio.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "protocol/frame.h"
#include "protocol/out_frame.h"
#include "protocol/worker_codec.h"

namespace drift {

class FrameLink : public std::enable_shared_from_this<FrameLink> {
 public:
  using Socket = asio::local::stream_protocol::socket;
  struct Handlers {
    // One complete frame, decoded (or why it does not decode).
    std::function<void(Result<WorkerMessage>&& message)> message;
    // Called once, when the link closes for any reason (the peer's end, a bad frame, close()).
    std::function<void(const std::string& reason)> closed;
  };

  FrameLink(Socket socket, std::uint16_t version, std::uint32_t max_body);

  void start(Handlers handlers);
  void send(Frame frame, bool bulk = false);
  // Several frames, written together (one system call while the socket takes them).
  void send_all(std::vector<Frame> frames);
  void close(const std::string& reason);
  bool closed() const { return closed_; }
  // Bytes queued and not yet written.
  std::size_t queued_bytes() const { return queued_bytes_; }

 private:
  void read_more();
  void parse_frames();
  void read_large_body(const FrameHeader& header);
  void read_tail(const FrameHeader& header, std::size_t head_bytes);
  void schedule_write();
  void write_next();

  Socket socket_;
  const std::uint16_t version_;
  const std::uint32_t max_body_;
  Handlers handlers_;
  bool closed_ = false;
  static constexpr std::size_t kReadBufferBytes = 64u << 10;
  std::vector<std::uint8_t> read_buf_;  // bytes [read_begin_, read_end_) are not parsed yet
  std::size_t read_begin_ = 0;
  std::size_t read_end_ = 0;
  std::vector<std::uint8_t> large_body_;  // a body too large for read_buf_, being read
  WorkerMessage large_message_;  // or a message whose tail vector is being read into
  std::deque<Frame> write_queue_;
  std::deque<Frame> bulk_queue_;
  std::vector<Frame> in_flight_;  // the frames the current write is writing
  bool writing_ = false;
  bool write_posted_ = false;  // a write_next() is posted (schedule_write)
  std::size_t queued_bytes_ = 0;
};

}  // namespace drift
