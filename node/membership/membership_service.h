// Runs the membership protocol on the network thread (docs/architecture.md §5): joins through seeds,
// has the heartbeat thread (heartbeat_beacon.h) send a heartbeat with our load index, our health
// and a gossip slice to the local group every interval, feeds
// received heartbeats and gossip to the MemberTable, advances failure detection, and reports every
// state change (alive / suspect / dead) to its subscribers. Traffic per node is O(group size).
// Before a suspect is declared dead it is probed indirectly through other members (IndirectProbes
// decides, this service sends and answers); a node whose own loop stalled restarts detection
// rather than blame the others; a node that is declared dead is told so when it speaks again
// (a heartbeat whose gossip holds its tombstone), so that it fences.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "node/membership/heartbeat_beacon.h"
#include "node/membership/indirect_probes.h"
#include "node/membership/local_health.h"
#include "node/net/thread_time.h"
#include "node/membership/member_table.h"
#include "node/net/endpoint.h"
#include "node/net/transport.h"

namespace drift {

class MembershipService {
 public:
  struct Params {
    std::chrono::milliseconds heartbeat_interval{100};
    std::size_t group_size = 8;
    std::size_t gossip_entries = 8;  // at most this many member entries on a beat
    std::size_t gossip_rotating = 1;  // of them, entries not recently changed (anti-entropy)
    IndirectProbes::Params probes;
    // A helper answers a probe itself if it heard the suspect this recently.
    std::chrono::milliseconds heard_recently{200};
    // A round later than this after the previous one means our own loop stalled.
    std::chrono::milliseconds own_pause{300};
    // The heartbeat thread falls silent when our network thread has not run for this long.
    std::chrono::milliseconds hang_timeout{30000};
    std::chrono::milliseconds reconnect_max{5000};
  };
  using LoadSource = std::function<LoadIndex()>;
  using TransitionHandler = std::function<void(const MemberTransition&)>;

  MembershipService(asio::io_context& io, Transport& transport, MemberTable& table, Params params,
                    const HandshakeParams& handshake, LoadSource load);

  void start(const std::vector<Endpoint>& seeds);
  void stop();
  // This node leaves the cluster (SIGTERM, its tasks gone): every live member hears at once that
  // it is gone — its own entry, dead at its incarnation — instead of suspecting it for the
  // suspect timeout first. Call just before stop().
  void announce_leave();
  // Where the heartbeat figures go (heartbeat_bytes, heartbeats_received, late_heartbeats,
  // longest_gap_ms, longest_stall_ms); the daemon's counters, read on this thread.
  void count_into(NodeCounters& counters) { counters_out_ = &counters; }
  // TESTING ONLY (frame_faults.h): drop this fraction of our heartbeats.
  void set_heartbeat_drop(double fraction) { beacon_.set_drop(fraction); }
  int health() const { return health_.score(); }
  void subscribe(TransitionHandler h) { subscribers_.push_back(std::move(h)); }
  // What the heartbeats report of this node's migration work (driftctl status).
  void report_counters(std::function<NodeCounters()> source) { counters_ = std::move(source); }

  // A node completed a handshake with us: it exists, at that incarnation and address.
  void on_peer_hello(const Hello& hello);
  void on_heartbeat(const Heartbeat& hb);
  void on_probe_request(const ProbeRequest& req, std::uint32_t from);
  void on_probe_ack(const ProbeAck& ack, std::uint32_t from);
  // Traffic from (node_id, incarnation) was dropped as stale: tell it that it was declared dead
  // (at most once per heartbeat interval per node).
  void on_stale_traffic(std::uint32_t node_id, std::uint64_t incarnation);

  std::optional<Endpoint> address_of(std::uint32_t node_id) const;
  bool is_alive(std::uint32_t node_id) const;
  std::vector<Member> members() const { return table_.members(); }
  const MemberTable& table() const { return table_; }

 private:
  void arm();
  void round();
  void send_heartbeats();
  void note_arrival(std::uint32_t from, std::uint64_t incarnation,
                    std::chrono::steady_clock::time_point now);
  static constexpr std::size_t kMaxSuspectsSent = 16;
  void send_probes(std::chrono::steady_clock::time_point now);
  // Once a second, one member declared dead (in turn) is dialled at its last address: if it is
  // back — restarted with no seed of its own that is up, or a partition healed — the handshake
  // brings it in (or tells the old incarnation it was declared dead), as Serf reconnects.
  void redial_dead(std::chrono::steady_clock::time_point now);
  void send_to(std::uint32_t node_id, const WireMessage& msg);
  void send_tombstone(std::uint32_t node_id, std::uint64_t dead_incarnation);
  Heartbeat direct_heartbeat();
  void publish(const std::vector<MemberTransition>& transitions);
  void log(const MemberTransition& t) const;

  asio::io_context& io_;
  Transport& transport_;
  MemberTable& table_;
  Params params_;
  LoadSource load_;
  asio::steady_timer timer_;
  IndirectProbes probes_;
  std::optional<std::chrono::steady_clock::time_point> last_round_;
  std::map<std::uint32_t, std::chrono::steady_clock::time_point> last_tombstone_;
  std::uint64_t sequence_ = 0;
  // Rounds sent; the counters and our own entry ride on one in kFullEvery.
  static constexpr std::uint64_t kFullEvery = 10;
  std::uint64_t round_ = 0;
  bool stopped_ = false;
  std::vector<TransitionHandler> subscribers_;
  std::function<NodeCounters()> counters_;
  std::chrono::steady_clock::time_point last_redial_{};
  std::uint32_t last_redialled_ = 0;  // the next dead member to dial is the next id after it
  NodeCounters* counters_out_ = nullptr;
  std::uint64_t tombstone_bytes_ = 0;
  HeartbeatBeacon beacon_;
  LocalHealth health_;
  StallAccount stall_account_;  // where the network thread's time went between rounds
  // By member: the incarnation last heard and when.
  std::map<std::uint32_t, std::pair<std::uint64_t, std::chrono::steady_clock::time_point>>
      last_heard_;
};

}  // namespace drift
