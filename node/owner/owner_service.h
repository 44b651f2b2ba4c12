// Owner reclaim on this node (docs/architecture.md §9): every owner.poll the detector reads the machine, the
// policy decides the node's state, and this service carries the decision out.
//   available  tasks run, migrations and balancing moves are accepted, the balancer runs
//   suspended  tasks pause and stay in memory (TaskHost::pause); nothing is accepted
//   draining   tasks stay paused and every one migrates away, to destinations chosen by capacity
//              from the heartbeat view, never to a node that is not available; a refused move
//              resumes here (still paused) and is planned again at the next poll
//   reclaimed  the node is empty; anything that still arrives is sent away again
// driftctl reclaim / release act at once. If tasks are still here owner.vacate_deadline seconds
// after draining began (the owner is switching the machine off), the evacuation-deadline hook is
// called once with them (the daemon drops them and tells their jobs' roots, which roll the jobs
// back without this node). Network thread only.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <functional>
#include <vector>

#include "node/balance/balancer_service.h"
#include "node/owner/evacuation_plan.h"
#include "node/membership/member_table.h"
#include "node/tasks/migration_service.h"
#include "node/owner/owner_detector.h"
#include "node/owner/owner_policy.h"
#include "node/tasks/task_host.h"

namespace drift {

class OwnerService {
 public:
  using Clock = std::chrono::steady_clock;
  using DeadlineHook = std::function<void(const std::vector<TaskId>&)>;

  OwnerService(asio::io_context& io, const OwnerSettings& settings, bool accept_tasks,
               OwnerDetector::LoadSource external_load, TaskHost& host,
               MigrationService& migration, BalancerService& balancer, const MemberTable& members);

  void start();  // the first poll runs now: a node whose owner is busy takes no work
  void stop();
  // driftctl reclaim / release; the reply says the state right after it.
  OwnerReply command(OwnerAction action);
  OwnerState state() const { return policy_.state(); }
  // Replaces the default evacuation-deadline hook (which only logs). For failure recovery.
  void on_evacuation_deadline(DeadlineHook hook) { deadline_hook_ = std::move(hook); }
  // Called with true when tasks start leaving for the owner (draining or reclaimed, tasks here,
  // somewhere to go) and with false once that ends: the guests' CPU weight (GuestCpuGroup::lend).
  void on_lend_cpu(std::function<void(bool)> hook) { lend_cpu_ = std::move(hook); }

 private:
  void arm();
  void poll();
  double now_s() const;
  void apply(OwnerState before);
  void evacuate();
  void check_deadline();
  std::vector<EvacuationTarget> targets() const;
  std::vector<TaskId> leaving_tasks() const;

  asio::io_context& io_;
  OwnerSettings settings_;
  bool accept_tasks_;
  OwnerDetector detector_;
  OwnerPolicy policy_;
  TaskHost& host_;
  MigrationService& migration_;
  BalancerService& balancer_;
  const MemberTable& members_;
  asio::steady_timer timer_;
  Clock::time_point start_ = Clock::now();
  DeadlineHook deadline_hook_;
  std::function<void(bool)> lend_cpu_;
  bool lending_ = false;
  bool deadline_called_ = false;
  bool told_no_target_ = false;
  bool stopped_ = false;
};

}  // namespace drift
