// Per-frame fault decisions (frame_faults.h).
#include "node/net/frame_faults.h"

#include <cstdio>

namespace drift {

std::string FrameFaults::Settings::text() const {
  char buf[128];
  std::snprintf(buf, sizeof buf, "drop %g, duplicate %g, delay %g ms", drop, duplicate, delay_ms);
  return buf;
}

int FrameFaults::copies() {
  if (settings_.drop > 0 && uniform_(rng_) < settings_.drop) {
    ++dropped_;
    return 0;
  }
  if (settings_.duplicate > 0 && uniform_(rng_) < settings_.duplicate) {
    ++duplicated_;
    return 2;
  }
  return 1;
}

std::chrono::microseconds FrameFaults::delay() const {
  return std::chrono::microseconds(static_cast<std::int64_t>(settings_.delay_ms * 1000));
}

}  // namespace drift
