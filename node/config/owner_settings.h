// What the [owner] keys of driftd's configuration say (docs/architecture.md §9): which owner-reclaim policy
// runs, its thresholds (HTCondor's desktop policy as the guide) and which inputs the owner
// detector reads. Plain values; config.cc validates them (every threshold in seconds or load per
// core).
#pragma once

#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace drift {

// desktop: suspend on owner activity, vacate after max_suspend; immediate: vacate at once;
// never: the detector is ignored (only driftctl reclaim/release change the state).
enum class OwnerPolicyKind : std::uint8_t { kDesktop, kImmediate, kNever };

constexpr std::string_view to_string(OwnerPolicyKind k) {
  switch (k) {
    case OwnerPolicyKind::kDesktop:
      return "desktop";
    case OwnerPolicyKind::kImmediate:
      return "immediate";
    case OwnerPolicyKind::kNever:
      return "never";
  }
  return "unknown";
}

// The policy's thresholds (owner_policy.h says how they are used).
struct OwnerPolicyParams {
  OwnerPolicyKind kind = OwnerPolicyKind::kDesktop;
  double start_idle_s = 900;     // START / RELEASE: the owner idle at least this long ...
  double start_load = 0.3;       // ... and external load per core at most this
  double suspend_idle_s = 60;    // SUSPEND: owner input less than this long ago ...
  double suspend_load = 0.5;     // ... or external load at least this ...
  double suspend_load_s = 30;    // ... for this long
  double continue_idle_s = 300;  // CONTINUE (suspended -> available): idle this long, load low
  double max_suspend_s = 600;    // VACATE: suspended longer than this
};

// Which inputs the owner detector reads (owner_detector.h).
struct OwnerInputs {
  bool sessions = true;       // login sessions' ttys/ptys (utmp, or logind): their access times
  bool input_devices = true;  // /dev/input devices' access times, where the system updates them
  bool load = true;           // external load: load average minus drift's own runnable threads
  std::string activity_file;  // its modification time counts as owner input; empty = none
};

struct OwnerSettings {
  OwnerPolicyParams policy;
  OwnerInputs inputs;
  std::chrono::milliseconds poll{500};  // how often the detector looks
  double vacate_deadline_s = 60;        // draining longer than this: the recovery hook is called
  // The owner's local socket (node/owner/owner_socket.h): its path (empty: none), and who may
  // use it besides root: members of `group` and the users named.
  std::string socket;
  std::string group = "drift-owners";
  std::set<std::string> users;
};

}  // namespace drift
