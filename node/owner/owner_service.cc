// Carrying out the owner policy's decisions (owner_service.h).
#include "node/owner/owner_service.h"
#include "node/net/loop_watch.h"

#include <spdlog/spdlog.h>

#include <cmath>
#include <utility>


namespace drift {

namespace {

void log_missed_deadline(const std::vector<TaskId>& tasks) {
  std::string names;
  for (TaskId t : tasks) names += fmt::format("{}{:#x}:{}", names.empty() ? "" : " ", t.job, t.index);
  spdlog::error("owner: evacuation missed its deadline with {} task(s) still here ({}); recovery "
                "from checkpoints is not wired to OwnerService::on_evacuation_deadline yet, so "
                "they stay here, paused, and the evacuation keeps trying",
                tasks.size(), names);
}

}  // namespace

OwnerService::OwnerService(asio::io_context& io, const OwnerSettings& settings, bool accept_tasks,
                           OwnerDetector::LoadSource external_load, TaskHost& host,
                           MigrationService& migration, BalancerService& balancer,
                           const MemberTable& members)
    : io_(io),
      settings_(settings),
      accept_tasks_(accept_tasks),
      detector_(settings.inputs, std::move(external_load)),
      policy_(settings.policy),
      host_(host),
      migration_(migration),
      balancer_(balancer),
      members_(members),
      timer_(io),
      deadline_hook_(log_missed_deadline) {}

void OwnerService::start() {
  spdlog::info("owner policy {}: start at {:g} s idle and external load <= {:g}, suspend under "
               "{:g} s idle or load >= {:g} for {:g} s, vacate after {:g} s suspended; inputs: "
               "sessions {}, input devices {}, load {}, activity file {}",
               to_string(settings_.policy.kind), settings_.policy.start_idle_s,
               settings_.policy.start_load, settings_.policy.suspend_idle_s,
               settings_.policy.suspend_load, settings_.policy.suspend_load_s,
               settings_.policy.max_suspend_s, settings_.inputs.sessions ? "on" : "off",
               settings_.inputs.input_devices ? "on" : "off",
               settings_.inputs.load ? "on" : "off",
               settings_.inputs.activity_file.empty() ? "none" : settings_.inputs.activity_file);
  poll();
}

void OwnerService::stop() {
  stopped_ = true;
  timer_.cancel();
}

void OwnerService::arm() {
  timer_.expires_after(settings_.poll);
  timer_.async_wait([this](std::error_code ec) {
    if (ec || stopped_) return;
    const LoopHold hold("the owner's poll");
    poll();
  });
}

double OwnerService::now_s() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void OwnerService::poll() {
  const OwnerState before = policy_.state();
  const OwnerReadings r = detector_.read(std::chrono::system_clock::now());
  policy_.step(OwnerObservation{now_s(), r.idle_s(), r.external_load, host_.task_count()});
  apply(before);
  arm();
}

OwnerReply OwnerService::command(OwnerAction action) {
  const OwnerState before = policy_.state();
  if (action == OwnerAction::kReclaim) {
    policy_.reclaim(now_s(), host_.task_count());
  } else {
    policy_.release(now_s());
  }
  apply(before);
  const MemberInfo& self = members_.self();
  return OwnerReply{self.node_id, self.name, policy_.state(), host_.task_count(), policy_.why()};
}

// Carries out the state after a poll or a command; in draining and reclaimed, every poll sends
// away whatever is (still, or again) here.
void OwnerService::apply(OwnerState before) {
  const OwnerState now = policy_.state();
  if (now != before) {
    spdlog::info("owner: {} -> {} ({}), {} task(s) here", to_string(before), to_string(now),
                 policy_.why(), host_.task_count());
    const bool available = now == OwnerState::kAvailable;
    migration_.set_accepting(accept_tasks_ && available);
    balancer_.set_active(available);
    if (available) {
      host_.unpause();
    } else {
      host_.pause();
    }
    deadline_called_ = false;
    told_no_target_ = false;
  }
  const bool leaving = now == OwnerState::kDraining || now == OwnerState::kReclaimed;
  if (leaving) {
    evacuate();
    check_deadline();
  }
  // Checked at every poll: lent from the first move until the node is empty (or back).
  const bool lend = leaving && host_.task_count() > 0 && !told_no_target_;
  if (lend != lending_ && lend_cpu_) lend_cpu_(lend);
  lending_ = lend;
}

std::vector<TaskId> OwnerService::leaving_tasks() const {
  std::vector<TaskId> out;
  for (TaskId t : host_.tasks()) {
    if (!migration_.moving(t) && !host_.frozen(t)) out.push_back(t);
  }
  return out;
}

// Members that are alive, have sent us their load, are available to take work and say so with
// usable numbers.
std::vector<EvacuationTarget> OwnerService::targets() const {
  std::vector<EvacuationTarget> out;
  const std::uint32_t self = members_.self().node_id;
  for (const Member& m : members_.members()) {
    if (m.info.node_id == self || m.info.state != MemberState::kAlive || !m.heard) continue;
    if (m.load.owner != OwnerState::kAvailable) continue;
    out.push_back({m.info.node_id, m.load.task_load, m.load.capacity});
  }
  return out;
}

void OwnerService::evacuate() {
  std::vector<LeavingTask> leaving;
  for (TaskId t : leaving_tasks()) leaving.push_back({t, host_.task_load(t)});
  if (leaving.empty()) return;
  const auto plan = plan_evacuation(std::move(leaving), targets());
  if (plan.empty()) {
    if (!std::exchange(told_no_target_, true)) {
      spdlog::warn("owner: no available node to take {} task(s); they stay here, paused, until "
                   "one is", host_.task_count());
    }
    return;
  }
  told_no_target_ = false;  // somewhere to go again (the CPU is lent while they leave)
  for (const auto& [task, dest] : plan) migration_.move(task, dest, BalanceBasis{});
}

void OwnerService::check_deadline() {
  if (deadline_called_ || host_.task_count() == 0) return;
  if (now_s() - policy_.since_s() < settings_.vacate_deadline_s) return;
  if (policy_.state() != OwnerState::kDraining) return;
  deadline_called_ = true;
  deadline_hook_(host_.tasks());
}

}  // namespace drift
