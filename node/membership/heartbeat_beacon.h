// Sends this node's heartbeats from a thread of its own, on connections of its own
// (docs/architecture.md §5.1). The network thread takes in state chunks, checkpoint copies and
// executables and talks to the workers; on a slow PC that work can hold it for a long while, and a
// heartbeat queued behind 100 MB of state on the peer's connection waits for all of it. So the
// beacon keeps one extra connection to each member of the local group that carries nothing but
// heartbeats, written by this thread, which does nothing else: the heartbeat goes out on time as
// long as the process gets the CPU at all. The receiving side treats the connection as any other
// from that node (same handshake, same identity checks).
//
// The network thread hands it, each round, what to send (`update`): the heartbeat (load, counters,
// gossip), the group and our Hello. If the network thread stops handing it anything for
// `hang_timeout`, the beacon falls silent, so a daemon whose loop hangs is still declared dead.
// The beacon's own timer lateness feeds this node's local health (local_health.h).
// Thread-safe: every public method may be called from any thread.
#pragma once

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "node/net/endpoint.h"
#include "node/net/peer_connection.h"
#include "protocol/messages.h"

namespace drift {

class HeartbeatBeacon : private ConnectionListener {
 public:
  using Clock = std::chrono::steady_clock;
  struct Params {
    std::chrono::milliseconds interval{100};
    std::chrono::milliseconds hang_timeout{30000};
    std::chrono::milliseconds reconnect_max{5000};
    HandshakeParams handshake;
  };
  struct Target {
    std::uint32_t node_id = 0;
    Endpoint address;
  };

  explicit HeartbeatBeacon(Params params);
  ~HeartbeatBeacon();
  HeartbeatBeacon(const HeartbeatBeacon&) = delete;
  HeartbeatBeacon& operator=(const HeartbeatBeacon&) = delete;

  void start();
  void stop();

  // From the network thread, every round: the heartbeat to send from now on (its sequence is the
  // beacon's), to whom, and as whom. A new incarnation in `self` redials every connection.
  void update(Heartbeat heartbeat, std::vector<Target> group, Hello self);
  // Sends the current heartbeat now, not at the next tick (a refutation must spread at once).
  void beat_now();
  // TESTING ONLY: drop this fraction of heartbeats, as frame_faults.h does to other frames.
  void set_drop(double fraction) { drop_.store(fraction); }

  // Bytes of heartbeat frames written so far, and the most late the beacon's own timer has been
  // since the last call (this thread starved of CPU).
  std::uint64_t bytes_sent() const { return bytes_sent_.load(); }
  std::chrono::milliseconds take_lateness();
  // The members whose address refused our heartbeat connection (nothing listens there: the
  // process is gone) since the last call, each once, with when the refused connection began.
  struct Refusal {
    std::uint32_t node_id = 0;
    Clock::time_point dialed;
  };
  std::vector<Refusal> take_refused();

 private:
  struct Link {
    Endpoint address;
    ConnectionPtr conn;
    Clock::time_point next_dial{};
    std::chrono::milliseconds backoff{0};
  };

  void arm();
  void tick();
  void send_all();
  void dial(std::uint32_t node_id, Link& link);

  void on_authenticated(const ConnectionPtr&) override {}
  void on_message(const ConnectionPtr& conn, WireMessage&&) override;
  void on_chunk(const ConnectionPtr& conn, const ChunkView&) override;
  void on_closed(const ConnectionPtr& conn, const std::string& reason) override;

  Params params_;
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  asio::steady_timer timer_;
  std::thread thread_;

  std::mutex mutex_;  // guards the fields handed over by update()
  Heartbeat heartbeat_;
  std::vector<Target> group_;
  Hello self_;
  Clock::time_point updated_{};
  bool has_update_ = false;
  std::vector<Refusal> refused_;  // for take_refused

  // The beacon thread's own.
  std::map<std::uint32_t, Link> links_;
  std::uint64_t incarnation_ = 0;
  std::uint64_t sequence_ = 0;
  Clock::time_point due_{};
  bool silent_ = false;  // the network thread hung: no beats until it updates again
  std::uint64_t drop_state_ = 0x9e3779b97f4a7c15ull;

  std::atomic<double> drop_{0};
  std::atomic<std::uint64_t> bytes_sent_{0};
  std::atomic<std::int64_t> lateness_ms_{0};
  std::atomic<bool> stopped_{false};
};

}  // namespace drift
