// Telling systemd how driftd is doing (Type=notify, docs/architecture.md §12): READY=1 once it
// listens and has joined, STOPPING=1 when it begins to shut down, STATUS= lines on the way. Through
// libsystemd's sd_notify where driftd was built with it; without it, or when not started by
// systemd (no NOTIFY_SOCKET), every call does nothing.
#pragma once

#include <string>

namespace drift {

void notify_ready(const std::string& status);
void notify_stopping();
void notify_status(const std::string& status);

}  // namespace drift
