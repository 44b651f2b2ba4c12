// Runs the membership protocol on the network thread (DESIGN.md §5): joins through seeds, sends a
// heartbeat with our load index and a gossip slice to the local group every interval, feeds
// received heartbeats and gossip to the MemberTable, advances failure detection, and reports every
// state change (alive / suspect / dead) to its subscribers. Traffic per node is O(group size).
#pragma once

#include <asio.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

#include "node/endpoint.h"
#include "node/member_table.h"
#include "node/transport.h"

namespace drift {

class MembershipService {
 public:
  struct Params {
    std::chrono::milliseconds heartbeat_interval{100};
    std::size_t group_size = 8;
    std::size_t gossip_entries = 8;
  };
  using LoadSource = std::function<LoadIndex()>;
  using TransitionHandler = std::function<void(const MemberTransition&)>;

  MembershipService(asio::io_context& io, Transport& transport, MemberTable& table, Params params,
                    LoadSource load);

  void start(const std::vector<Endpoint>& seeds);
  void stop();
  void subscribe(TransitionHandler h) { subscribers_.push_back(std::move(h)); }
  // What the heartbeats report of this node's migration work (driftctl status).
  void report_counters(std::function<NodeCounters()> source) { counters_ = std::move(source); }
  // Told the bytes of every heartbeat frame sent (for the per-node traffic figures).
  void count_sent(std::function<void(std::size_t)> sink) { sent_ = std::move(sink); }

  // A node completed a handshake with us: it exists, at that incarnation and address.
  void on_peer_hello(const Hello& hello);
  void on_heartbeat(const Heartbeat& hb);

  std::optional<Endpoint> address_of(std::uint32_t node_id) const;
  bool is_alive(std::uint32_t node_id) const;
  std::vector<Member> members() const { return table_.members(); }
  const MemberTable& table() const { return table_; }

 private:
  void arm();
  void round();
  void publish(const std::vector<MemberTransition>& transitions);

  asio::io_context& io_;
  Transport& transport_;
  MemberTable& table_;
  Params params_;
  LoadSource load_;
  asio::steady_timer timer_;
  std::uint64_t sequence_ = 0;
  bool stopped_ = false;
  std::vector<TransitionHandler> subscribers_;
  std::function<NodeCounters()> counters_;
  std::function<void(std::size_t)> sent_;
};

}  // namespace drift
