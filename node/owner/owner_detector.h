// The owner detector (docs/architecture.md §9): what this Linux machine says about its owner right now.
//   sessions      the access times of the ttys/ptys of logged-in users (utmp; logind's session
//                 files where utmp is absent), so SSH sessions count (HTCondor's KeyboardIdle)
//   input devices the access times of /dev/input/* (many kernels do not update them for USB
//                 keyboards; they only ever add information)
//   activity file its modification time counts as owner input (tests, scripts, screen lockers)
//   load          the external load the caller measures (load average minus our runnable threads)
// Each input can be switched off (OwnerInputs). A machine without utmp or logind (headless) logs
// that once and uses the other inputs. The parsing is pure (owner_sessions.h); this class does
// the reading, from paths a test can point elsewhere. Network thread only.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "node/config/owner_settings.h"

namespace drift {

struct OwnerReadings {
  std::optional<double> session_idle_s;  // nullopt: input off, or no session with a terminal
  std::optional<double> device_idle_s;
  std::optional<double> file_idle_s;     // nullopt: no activity file, or it does not exist yet
  double external_load = 0;              // per core; 0 when the input is off
  double idle_s() const;                 // the smallest of the three; +infinity if none
};

// Where the detector looks; tests point it at a temp dir.
struct OwnerDetectorPaths {
  std::filesystem::path utmp = "/var/run/utmp";
  std::filesystem::path logind_sessions = "/run/systemd/sessions";
  std::filesystem::path dev = "/dev";
  std::filesystem::path input_devices = "/dev/input";
};

class OwnerDetector {
 public:
  using Paths = OwnerDetectorPaths;
  using LoadSource = std::function<double()>;  // external load per core, now

  OwnerDetector(OwnerInputs inputs, LoadSource load, Paths paths = {});

  // What the inputs say at wall-clock time `now` (file times are wall-clock times).
  OwnerReadings read(std::chrono::system_clock::time_point now);

 private:
  std::vector<std::string> session_lines();
  std::optional<double> session_idle(double now);
  std::optional<double> device_idle(double now) const;
  std::optional<double> file_idle(double now) const;

  OwnerInputs inputs_;
  LoadSource load_;
  Paths paths_;
  bool told_headless_ = false;
};

}  // namespace drift
