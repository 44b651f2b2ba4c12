#include "node/service/systemd_notify.h"

#ifdef DRIFT_HAVE_LIBSYSTEMD
#include <systemd/sd-daemon.h>
#endif

namespace drift {

namespace {

void notify(const std::string& state) {
#ifdef DRIFT_HAVE_LIBSYSTEMD
  ::sd_notify(0, state.c_str());
#else
  (void)state;
#endif
}

// A status is one line: a newline would start another assignment.
std::string one_line(std::string s) {
  for (char& c : s) {
    if (c == '\n') c = ' ';
  }
  return s;
}

}  // namespace

void notify_ready(const std::string& status) { notify("READY=1\nSTATUS=" + one_line(status)); }
void notify_stopping() { notify("STOPPING=1"); }
void notify_status(const std::string& status) { notify("STATUS=" + one_line(status)); }

}  // namespace drift
