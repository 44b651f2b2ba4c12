// The owner-reclaim state machine (owner_policy.h).
#include "node/owner/owner_policy.h"

#include <fmt/format.h>

#include <utility>

namespace drift {

OwnerPolicy::OwnerPolicy(OwnerPolicyParams params) : params_(params) {}

OwnerState OwnerPolicy::after_activity() const {
  return params_.kind == OwnerPolicyKind::kImmediate ? OwnerState::kDraining
                                                     : OwnerState::kSuspended;
}

void OwnerPolicy::enter(OwnerState s, double now_s, std::string why) {
  state_ = s;
  since_s_ = now_s;
  why_ = std::move(why);
}

// Tracks how long the external load has been high; true when the owner is active now.
bool OwnerPolicy::suspend_due(const OwnerObservation& o) {
  if (o.external_load >= params_.suspend_load) {
    if (!load_high_since_) load_high_since_ = o.now_s;
  } else {
    load_high_since_.reset();
  }
  return o.idle_s < params_.suspend_idle_s ||
         (load_high_since_ && o.now_s - *load_high_since_ >= params_.suspend_load_s);
}

bool OwnerPolicy::start_holds(const OwnerObservation& o) const {
  return o.idle_s >= params_.start_idle_s && o.external_load <= params_.start_load;
}

namespace {
std::string activity(const OwnerObservation& o, const OwnerPolicyParams& p) {
  if (o.idle_s < p.suspend_idle_s) return fmt::format("owner input {:.1f} s ago", o.idle_s);
  return fmt::format("external load {:.2f} per core for {:g} s or more", o.external_load,
                     p.suspend_load_s);
}
}  // namespace

OwnerState OwnerPolicy::step(const OwnerObservation& o) {
  const bool first = std::exchange(first_, false);
  if (params_.kind == OwnerPolicyKind::kNever) {
    if (state_ == OwnerState::kDraining && o.tasks == 0) {
      enter(OwnerState::kReclaimed, o.now_s, "every task has left");
    }
    return state_;
  }
  const bool active = suspend_due(o);
  if (first && !held_ && !start_holds(o)) {
    enter(OwnerState::kReclaimed, o.now_s,
          fmt::format("owner active at start (idle {:.0f} s, external load {:.2f})", o.idle_s,
                      o.external_load));
    return state_;
  }
  switch (state_) {
    case OwnerState::kAvailable:
      if (active) enter(after_activity(), o.now_s, activity(o, params_));
      break;
    case OwnerState::kSuspended:
      if (o.now_s - since_s_ > params_.max_suspend_s) {
        enter(OwnerState::kDraining, o.now_s,
              fmt::format("suspended longer than {:g} s", params_.max_suspend_s));
      } else if (o.idle_s >= params_.continue_idle_s && o.external_load <= params_.start_load &&
                 !active) {
        enter(OwnerState::kAvailable, o.now_s,
              fmt::format("owner idle {:.0f} s, external load {:.2f}", o.idle_s, o.external_load));
      }
      break;
    case OwnerState::kDraining:
      if (o.tasks == 0) enter(OwnerState::kReclaimed, o.now_s, "every task has left");
      break;
    case OwnerState::kReclaimed:
      if (!held_ && start_holds(o)) {
        enter(OwnerState::kAvailable, o.now_s,
              fmt::format("owner idle {:.0f} s, external load {:.2f}", o.idle_s,
                          o.external_load));
      }
      break;
  }
  // Emptied in the same poll it started draining (nothing was hosted).
  if (state_ == OwnerState::kDraining && o.tasks == 0) {
    enter(OwnerState::kReclaimed, o.now_s, why_ + "; no task to move");
  }
  return state_;
}

OwnerState OwnerPolicy::reclaim(double now_s, std::uint32_t tasks) {
  held_ = true;
  first_ = false;
  if (state_ == OwnerState::kAvailable || state_ == OwnerState::kSuspended) {
    enter(tasks > 0 ? OwnerState::kDraining : OwnerState::kReclaimed, now_s,
          "reclaimed by command");
  }
  return state_;
}

OwnerState OwnerPolicy::release(double now_s) {
  held_ = false;
  first_ = false;
  load_high_since_.reset();
  if (state_ != OwnerState::kAvailable) enter(OwnerState::kAvailable, now_s, "released by command");
  return state_;
}

}  // namespace drift
