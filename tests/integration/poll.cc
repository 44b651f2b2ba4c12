#include "tests/integration/poll.h"

#include <thread>

namespace drift::test {

bool poll_until(std::chrono::milliseconds timeout, std::chrono::milliseconds interval,
                const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(interval);
  }
}

}  // namespace drift::test
