// The daemon's network: a listening socket for peers and clients, and one outgoing connection per
// peer node, re-established with exponential backoff (docs/architecture.md §3–4). Node-to-node traffic goes
// on the sender's outgoing connection, so each direction of a node pair is one ordered stream.
// Runs on the network thread only.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include "node/net/log_limiter.h"
#include <string>

#include "node/net/admission.h"
#include "node/net/endpoint.h"
#include "node/net/frame_faults.h"
#include "node/net/peer_connection.h"
#include <drift/status.h>

namespace drift {

class Transport : private ConnectionListener {
 public:
  struct Params {
    HandshakeParams handshake;
    std::chrono::milliseconds reconnect_min{100};
    std::chrono::milliseconds reconnect_max{5000};
    Admission::Limits admission;  // for connections from strangers, until authenticated
  };
  // Called for every message on an authenticated connection (from peers or clients).
  using MessageHandler = std::function<void(const ConnectionPtr&, WireMessage&&)>;
  // Called when a connection (either side) completes the handshake with a node.
  using PeerHandler = std::function<void(const ConnectionPtr&)>;
  using ClosedHandler = std::function<void(const ConnectionPtr&, const std::string& reason)>;
  using ChunkHandler = std::function<void(const ConnectionPtr&, const ChunkView&)>;

  Transport(asio::io_context& io, Params params, Hello self);

  void on_message(MessageHandler h) { message_handler_ = std::move(h); }
  void on_peer(PeerHandler h) { peer_handler_ = std::move(h); }
  void on_connection_closed(ClosedHandler h) { closed_handler_ = std::move(h); }
  void on_chunk(ChunkHandler h) { chunk_handler_ = std::move(h); }

  // Binds and starts accepting; the error names the address and the system's reason.
  Status listen(const Endpoint& at);
  // Keeps trying to reach a seed until one connection to it is authenticated.
  void connect_seed(const Endpoint& seed);
  // One attempt, no retry: a member declared dead may be back (docs/architecture.md §3).
  void dial_once(const Endpoint& address);
  // Queues msg for node_id on our outgoing connection to it, connecting if needed.
  void send(std::uint32_t node_id, const Endpoint& address, const WireMessage& msg);
  void send(std::uint32_t node_id, const Endpoint& address, Frame frame, bool bulk = false);
  // Drops the outgoing link to a node (declared dead) and anything queued for it.
  void forget(std::uint32_t node_id);
  // Our incarnation changed (a refutation or a fence): connections made from now on present it.
  void set_incarnation(std::uint64_t incarnation) { self_.incarnation = incarnation; }
  std::uint64_t incarnation() const { return self_.incarnation; }
  // The Hello this node presents (the heartbeat thread's connections present it too).
  const Hello& hello() const { return self_; }
  // After a fence: closes every connection to or from a node (and any not yet authenticated,
  // which may carry our old Hello) and drops what was queued for nodes; client connections stay.
  // Later sends dial again and present the current Hello. Returns how many were closed.
  std::size_t close_node_connections(const std::string& reason);
  // Closes the connections of people whose tokens were just revoked.
  void close_revoked(const std::set<std::string>& names);
  // Stops accepting and ends every connection after what is queued on it has left
  // (PeerConnection::finish); `done` runs once all are closed, or after `linger` (those left are
  // closed then). Pending handlers then complete.
  void shutdown(std::chrono::milliseconds linger, std::function<void()> done);

  std::uint64_t frames_refused() const { return frames_refused_; }
  // The same by kind (refusal_kind.h).
  const std::map<std::string, std::uint64_t>& refused_by_kind() const { return refused_by_kind_; }
  // Bytes of frames received (headers included) that carry heartbeats, and balancing requests
  // and reservations.
  std::uint64_t heartbeat_bytes_received() const { return heartbeat_bytes_in_; }
  std::uint64_t balance_bytes_received() const { return balance_bytes_in_; }
  // TESTING ONLY (frame_faults.h): faults on the node-to-node frames sent from now on.
  void set_frame_faults(const FrameFaults::Settings& settings) { faults_.set(settings); }

 private:
  struct Link {  // our outgoing connection to one node
    Endpoint address;
    ConnectionPtr conn;
    std::unique_ptr<asio::steady_timer> retry;
    std::chrono::milliseconds backoff{0};
    bool connecting = false;
    std::deque<std::pair<Frame, bool>> pending;  // sent while unconnected (frame, bulk)
    std::size_t pending_bytes = 0;
  };
  static constexpr std::size_t kMaxPendingBytes = 64u << 20;

  struct HeldFrame {  // a frame delayed by the test-only frame faults
    std::chrono::steady_clock::time_point due;
    std::uint32_t node_id;
    Endpoint address;
    Frame frame;
    bool bulk;
  };
  void send_with_faults(std::uint32_t node_id, const Endpoint& address, Frame frame, bool bulk);
  void release_held();
  void send_now(std::uint32_t node_id, const Endpoint& address, Frame frame, bool bulk);
  void accept_next();
  void trim_buffers();
  void dial(std::uint32_t node_id);
  void dial_seed(const Endpoint& seed, std::chrono::milliseconds backoff, bool retry = true);
  // Dials `seed` again after `backoff` (doubling up to reconnect_max).
  void redial_seed(const Endpoint& seed, std::chrono::milliseconds backoff);
  void schedule_redial(std::uint32_t node_id);
  void attach(Link& link, ConnectionPtr conn);
  ConnectionPtr make_connection(asio::ip::tcp::socket socket, PeerConnection::Side side);
  void admit(asio::ip::tcp::socket socket);
  void settle(const ConnectionPtr& conn);

  void on_authenticated(const ConnectionPtr& conn) override;
  void on_message(const ConnectionPtr& conn, WireMessage&& msg) override;
  void on_chunk(const ConnectionPtr& conn, const ChunkView& chunk) override;
  void on_frame_received(std::uint16_t type, std::size_t bytes) override;
  void on_closed(const ConnectionPtr& conn, const std::string& reason) override;
  void shutdown_done();

  asio::io_context& io_;
  Params params_;
  Hello self_;
  asio::ip::tcp::acceptor acceptor_;
  asio::steady_timer trim_timer_;  // returns pooled chunk buffers after a quiet spell
  std::map<std::uint32_t, Link> links_;
  std::set<ConnectionPtr> connections_;  // every live connection, both sides
  Admission admission_{params_.admission};
  // Accepted, not yet authenticated: from where, since when.
  struct Unsettled {
    std::string address;
    std::chrono::steady_clock::time_point since;
    std::weak_ptr<PeerConnection> conn;
  };
  std::map<const PeerConnection*, Unsettled> unsettled_;
  // The handshake pending longest (from `address`, or from anywhere when null) is closed, if it
  // has been pending kYieldAfter at least: a real one takes milliseconds.
  void make_room(const std::string* address, std::chrono::steady_clock::time_point now);
  static constexpr std::chrono::milliseconds kYieldAfter{500};
  // Seeds dialled, until their connection is authenticated: one that closes before (the seed,
  // or a relay in front of it, not up yet, or stopping) is dialled again.
  struct SeedDial {
    Endpoint seed;
    std::chrono::milliseconds backoff;
  };
  std::map<const PeerConnection*, SeedDial> seed_dials_;
  LogLimiter refusal_log_{20, std::chrono::seconds(10)};  // what peers can make us log
  MessageHandler message_handler_;
  PeerHandler peer_handler_;
  ClosedHandler closed_handler_;
  ChunkHandler chunk_handler_;
  bool stopping_ = false;
  std::uint64_t frames_refused_ = 0;
  std::map<std::string, std::uint64_t> refused_by_kind_;  // a handful of fixed keys
  std::uint64_t heartbeat_bytes_in_ = 0, balance_bytes_in_ = 0;
  FrameFaults faults_;
  std::deque<HeldFrame> held_;  // in send order; released in that order
  asio::steady_timer held_timer_;
  asio::steady_timer linger_timer_;  // shutdown(): the wait for the peers to end their halves
  std::function<void()> shutdown_done_;
};

}  // namespace drift
