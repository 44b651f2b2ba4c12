// One authenticated TCP connection to a peer daemon or a driftctl client (docs/architecture.md §4),
// encrypted and authenticated by TLS 1.3 with the cluster's pre-shared key (tls_context.h,
// tls_channel.h; plaintext only when a test asks for it). It owns its read loop (read what is
// there -> dispatch every complete frame -> read again) and a write queue with one write in
// progress. Small frames are parsed out of one read buffer, so a small message costs one read;
// a body too large for it is read straight into its final buffer (a state chunk into a pooled
// buffer that the chunk then owns, a TaskMessage payload into the message). Frames are written
// once the network thread is done with the handler that queued them, all queued meanwhile
// together (small ones sealed as one TLS record: protocol/frame_coalescing.h); only what the
// socket does not take waits for it to be writable. Over TLS, a large body is read, and bulk
// frames are encrypted, at most IdleLane::kBulkStep bytes per handler, the next step waiting in
// the network thread's bulk lane (HandshakeParams::bulk_lane) behind every ready handler. After the TLS handshake and until the
// drift handshake completes only Hello and HelloAuth are accepted, with a small frame limit;
// anything else closes the connection. A decode error closes this connection only, with the
// reason logged. A client's requests are not read while more than kClientBacklogBytes of
// answers wait for it to read them (one that never reads held a daemon's memory growing by 57
// bytes for each byte it sent). All methods run on the network thread.
#pragma once

#include <asio.hpp>

#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "migration/buffer_pool.h"
#include "node/net/access_token.h"
#include "node/net/idle_lane.h"
#include "node/net/tls_channel.h"
#include "node/net/tls_context.h"
#include "protocol/frame_coalescing.h"
#include "protocol/out_frame.h"
#include "protocol/codec.h"
#include "protocol/frame.h"
#include "protocol/messages.h"

namespace drift {

class PeerConnection;
using ConnectionPtr = std::shared_ptr<PeerConnection>;


class ConnectionListener {
 public:
  virtual ~ConnectionListener() = default;
  virtual void on_authenticated(const ConnectionPtr& conn) = 0;
  virtual void on_message(const ConnectionPtr& conn, WireMessage&& msg) = 0;
  // A state chunk, read in place: `chunk.bytes` stays valid while `chunk.owner` is held (during
  // the call only, if that is null).
  virtual void on_chunk(const ConnectionPtr& conn, const ChunkView& chunk) = 0;
  virtual void on_closed(const ConnectionPtr& conn, const std::string& reason) = 0;
  // A frame of `type` (`bytes` with its header) came in on an authenticated connection, before
  // it is decoded: what counts traffic by kind (/metrics).
  virtual void on_frame_received(std::uint16_t /*type*/, std::size_t /*bytes*/) {}
};

struct HandshakeParams {
  std::string cluster;
  std::vector<std::uint8_t> secret;
  std::uint32_t max_frame_bytes = 8u << 20;
  std::chrono::milliseconds handshake_timeout{5000};
  // TLS on every connection; null only in tests that measure or need plaintext (test.plaintext).
  std::shared_ptr<TlsContext> tls;
  // The network thread's lane for bulk steps (idle_lane.h); null: bulk steps are ordinary
  // handlers (the heartbeat thread's connections, tests).
  IdleLane* bulk_lane = nullptr;
};

class PeerConnection : public std::enable_shared_from_this<PeerConnection> {
 public:
  enum class Side { kConnector, kAcceptor };

  PeerConnection(asio::ip::tcp::socket socket, Side side, const HandshakeParams& params,
                 ConnectionListener& listener);

  // Starts the handshake with our Hello (its nonce is filled in here).
  void start(Hello ours);
  // Queues an encoded frame; frames queued before authentication are sent after it. Bulk frames
  // (state chunks) go out only when no ordinary frame is waiting, so a large transfer never
  // holds back heartbeats or small messages by more than one frame.
  void send(Frame frame, bool bulk = false);
  void send(const WireMessage& msg);
  // Closes the socket; on_closed is called once, with `reason`.
  void close(const std::string& reason);
  // Closes once what is queued has left (not the bulk frames: state chunks no one will take in
  // now): sends it, then ends our half of the stream and reads, dropping what the peer still
  // sends, until it ends its half too (the caller bounds the wait). Closing at once could reset
  // the connection — a socket closed with unread bytes does — and drop what was still on its way,
  // such as the last frame saying this node leaves.
  void finish(const std::string& reason);

  bool authenticated() const { return state_ == State::kOpen; }
  bool closed() const { return state_ == State::kClosed; }
  const Hello& peer() const { return peer_hello_; }
  // Who the peer proved to be at the TLS handshake: the member (a daemon, or driftctl with the
  // cluster secret) or a token's holder. A connection we made is to a member.
  const Principal& principal() const { return principal_; }
  // Whether the peer has sent anything yet (its TLS hello, or in plaintext any byte): the
  // admission makes room by closing only connections that have not (Transport::make_room).
  bool heard_from_peer() const;
  const std::string& remote() const { return remote_; }
  Side side() const { return side_; }
  // A short description for logs: "node 3 (127.0.0.1:7402)" or "client 127.0.0.1:51234".
  std::string describe() const;

 private:
  enum class State { kAwaitHello, kAwaitAuth, kOpen, kClosed };

  void read_more();
  void parse_frames();
  void dispatch(const FrameHeader& header, std::span<const std::uint8_t> body);
  void read_large_body(const FrameHeader& header);
  void on_large_body(const FrameHeader& header);
  void handle(WireMessage&& msg);
  void handle_handshake(WireMessage&& msg);
  void on_peer_hello(const Hello& hello);
  void on_peer_auth(const HelloAuth& auth);
  void tls_handshake();
  void on_tls_handshake();
  void tls_read_more();
  void tls_fill(std::span<std::uint8_t> rest, FrameHeader header);
  void schedule_write();
  void write_next();
  void write_next_tls();
  void wait_writable();
  void queue_bulk_step();
  void send_now(const WireMessage& msg);
  void half_close_if_done();
  void queued(const Frame& frame) { queued_bytes_ += frame.size(); }
  void dequeued(const Frame& frame) { queued_bytes_ -= frame.size(); }
  bool reads_held() const;
  void resume_reads_if_drained();
  static std::array<asio::const_buffer, 2> buffers_of(const Frame& frame, std::size_t offset);

  asio::ip::tcp::socket socket_;  // non-blocking
  std::unique_ptr<TlsChannel> tls_;  // null: plaintext (tests only)
  bool tls_ready_ = false;  // the TLS handshake is done (always, in plaintext)
  asio::steady_timer handshake_deadline_;
  Side side_;
  const HandshakeParams& params_;
  ConnectionListener& listener_;
  State state_ = State::kAwaitHello;
  Hello our_hello_;
  Hello peer_hello_;
  Principal principal_;
  bool certified_ = false;  // acceptor: the peer showed a certificate of the cluster CA
  std::vector<std::uint8_t> auth_key_;  // HelloAuth's: the TLS identity's key (plaintext: the secret)
  std::string remote_;
  // The read buffer holds any frame allowed before the handshake, and grows once it is done.
  static constexpr std::size_t kHandshakeReadBytes = 8u << 10;
  static constexpr std::size_t kReadBufferBytes = 64u << 10;
  static_assert(kFrameHeaderSize + kHandshakeMaxBody <= kHandshakeReadBytes);
  std::vector<std::uint8_t> read_buf_;  // bytes [read_begin_, read_end_) are not parsed yet
  std::size_t read_begin_ = 0;
  std::size_t read_end_ = 0;
  // A body too large for read_buf_, being read: a chunk's, a TaskMessage's payload, or another.
  BufferPool::Ptr chunk_body_;
  TaskMessage large_message_;
  std::vector<std::uint8_t> body_buf_;
  std::deque<Frame> write_queue_;  // ordinary frames, in order
  std::deque<Frame> bulk_queue_;   // state chunks, in order, behind ordinary frames
  std::deque<std::pair<Frame, bool>> held_until_auth_;
  // Bytes in write_queue_ and bulk_queue_. Above kClientBacklogBytes a client's frames wait
  // unread (reads_paused_) until the queue is down to half of it.
  static constexpr std::size_t kClientBacklogBytes = 16u << 20;
  std::size_t queued_bytes_ = 0;
  bool reads_paused_ = false;
  Frame in_flight_;                // the frame being written (plaintext: by async_write)
  std::size_t in_flight_done_ = 0;  // TLS: how much of it is encrypted
  bool has_in_flight_ = false;
  bool in_flight_bulk_ = false;     // in_flight_ came from bulk_queue_
  bool bulk_step_queued_ = false;   // TLS: the next step of writing bulk frames is in the lane
  bool writing_ = false;
  bool write_posted_ = false;  // a write_next() is posted (schedule_write)
  bool finishing_ = false;     // finish(): frames read are dropped, our half ends once sent
  bool half_closed_ = false;   // finish(): our half of the stream is ended
  std::string finish_reason_;
  std::string read_error_;  // TLS: how the stream ended, once the bytes read before are handled
};

}  // namespace drift
