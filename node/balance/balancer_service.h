// Load balancing on this node (docs/architecture.md §8): every balance.period it takes its own measured load
// and capacity (LoadMeter) and its local group's as advertised in heartbeats, asks the planner
// which of its tasks go where (or, for receiver-initiated diffusion, what to ask each neighbour
// for), and starts those migrations. It waits while its own moves are under way, so it never
// decides twice on the same excess. As a receiver it re-checks every balancing offer against its
// own newer view, counting work already on its way here. Splits and merges the planner asks for
// go to the job's root, which announces them with the next step's reduction. Network thread only.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "migration/location_cache.h"
#include "node/balance/balance_planner.h"
#include "node/balance/load_meter.h"
#include "node/membership/member_table.h"
#include "node/net/messenger.h"
#include "node/tasks/migration_service.h"
#include "node/balance/partner_book.h"
#include "node/tasks/task_host.h"

namespace drift {

class BalancerService {
 public:
  struct Params {
    PlannerParams planner;
    std::chrono::milliseconds period{1000};
    std::uint32_t group_size = 8;
  };

  BalancerService(asio::io_context& io, Params params, Messenger& messenger,
                  const MemberTable& members, LoadMeter& meter, TaskHost& host,
                  MigrationService& migration, const LocationCache& locations,
                  PartnerBook& partners, NodeCounters& counters);

  void start();
  void stop();
  // Off while the owner has the machine (docs/architecture.md §9): no rounds, requests ignored; the owner
  // service moves the tasks then.
  void set_active(bool active) { active_ = active; }
  // A neighbour running receiver-initiated diffusion asks for load.
  void on_request(const BalanceRequest& request);
  // Whether to take a balancing move offered with `basis` (std::nullopt: take it).
  std::optional<std::string> recheck(const BalanceBasis& basis) const;
  // One round now (the timer calls it; tests may too).
  void round();
  // This node's load as it will be once the moves under way are done — tasks leaving do not
  // count, balancing moves reserved or accepted here do — with its measured capacity. Advertised
  // in heartbeats, so a machine shipping its queue away does not look overloaded to its group.
  // A balancing move counts at its destination from the moment it is decided (a reservation,
  // node/balance/load_reservations.h), not from its offer: on a busy machine the task waits for the
  // worker before it is even offered (seconds, on a slow machine in a long step), and the
  // group's other senders must see the receiver's share taken meanwhile, or they fill it past
  // its share and a later round moves the difference back. It leaves this node's count only
  // once the destination's heartbeats carry it (MigrationService::Params::reservation_grace).
  balance::NodeLoad expected_load() const;

 private:
  void arm();
  std::vector<balance::NodeLoad> peers() const;
  std::vector<TaskView> movable_tasks() const;
  void send_moves(const std::vector<PlannedMove>& moves);
  void send_grain_requests(const RoundPlan& plan);
  bool asked_lately(TaskId task) const;

  asio::io_context& io_;
  Params params_;
  Messenger& messenger_;
  const MemberTable& members_;
  LoadMeter& meter_;
  TaskHost& host_;
  MigrationService& migration_;
  const LocationCache& locations_;
  PartnerBook& partners_;
  NodeCounters& counters_;
  asio::steady_timer timer_;
  bool stopped_ = false;
  bool active_ = true;
  std::uint64_t rounds_ = 0;
  // The last round that planned sent nothing (balancer/send_trigger.h); so it starts: a node
  // sends at first only when it is out of balance past the hysteresis.
  bool settled_ = true;
  // Tasks named in a split or merge request, with the round: the change takes effect only after
  // the job's next step, so they are not named again for a few rounds.
  std::map<TaskId, std::uint64_t> grain_asked_;
};

}  // namespace drift
