// Spinning busy work (busy_work.h).
#include "apps/common/busy_work.h"

#include "apps/common/digest.h"

namespace drift::apps {

std::uint64_t spin_for(std::chrono::microseconds duration) {
  if (duration.count() <= 0) return 0;
  const auto end = std::chrono::steady_clock::now() + duration;
  std::uint64_t x = 1;
  do {
    for (int i = 0; i < 256; ++i) x = mix64(x + static_cast<std::uint64_t>(i));
  } while (std::chrono::steady_clock::now() < end);
  return x;
}

}  // namespace drift::apps
