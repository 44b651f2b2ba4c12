// The owner-reclaim policy (docs/architecture.md §9), HTCondor's desktop policy as the guide. A pure state
// machine: every poll the daemon hands it what the owner detector saw (time, idle seconds,
// external load) and how many tasks the node still hosts; it answers with the node's state.
//
//   available  --SUSPEND--> suspended   (desktop)    tasks pause, stay in memory
//   available  --SUSPEND--> draining    (immediate)  every task migrates away
//   suspended  --CONTINUE-> available   the owner left again before max_suspend
//   suspended  --VACATE---> draining    suspended longer than max_suspend
//   draining   --empty----> reclaimed   the last task has left
//   reclaimed  --RELEASE--> available   START holds again
//
// SUSPEND: idle < suspend_idle, or external load >= suspend_load for suspend_load seconds.
// START / RELEASE: idle >= start_idle and load <= start_load. CONTINUE: idle >= continue_idle and
// load <= start_load. A node whose owner is active when the daemon starts begins reclaimed.
// reclaim() (driftctl reclaim) drains at once and holds the node until release(); release()
// returns it to the pool at once, and later owner activity counts again. Policy `never` ignores
// the detector. Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "node/config/owner_settings.h"
#include "protocol/wire_types.h"

namespace drift {

struct OwnerObservation {
  double now_s = 0;          // any monotonic clock, seconds
  double idle_s = 1e300;     // since the owner's last input; huge when no input says anything
  double external_load = 0;  // per core, programs that are not drift's
  std::uint32_t tasks = 0;   // tasks still hosted here
};

class OwnerPolicy {
 public:
  explicit OwnerPolicy(OwnerPolicyParams params);

  // One poll. Returns the state after it; why() says what caused the last change.
  OwnerState step(const OwnerObservation& o);
  // driftctl reclaim / release, at `now_s`.
  OwnerState reclaim(double now_s, std::uint32_t tasks);
  OwnerState release(double now_s);

  OwnerState state() const { return state_; }
  double since_s() const { return since_s_; }  // when the current state began
  const std::string& why() const { return why_; }
  bool held() const { return held_; }  // reclaimed by command, until release()

 private:
  bool suspend_due(const OwnerObservation& o);
  bool start_holds(const OwnerObservation& o) const;
  void enter(OwnerState s, double now_s, std::string why);
  OwnerState after_activity() const;

  OwnerPolicyParams params_;
  OwnerState state_ = OwnerState::kAvailable;
  double since_s_ = 0;
  std::string why_ = "started";
  bool held_ = false;
  bool first_ = true;
  std::optional<double> load_high_since_;  // external load >= suspend_load since then
};

}  // namespace drift
