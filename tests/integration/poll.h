// Waiting for a condition with a deadline, checking it every `interval`: how the integration
// tests synchronise with daemons (never a bare sleep).
#pragma once

#include <chrono>
#include <functional>

namespace drift::test {

// True as soon as `condition` holds; false if it still does not at `timeout`.
bool poll_until(std::chrono::milliseconds timeout, std::chrono::milliseconds interval,
                const std::function<bool()>& condition);

}  // namespace drift::test
