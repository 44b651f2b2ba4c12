// Records the largest single allocation made through the global operator new between start()
// and stop(). The test executable replaces operator new for this; under AddressSanitizer, which
// owns operator new, nothing is recorded and available() is false.
#pragma once

#include <cstddef>

namespace drift::test {

struct AllocationTracker {
  static bool available();
  static void start();  // resets the record
  static void stop();
  static std::size_t largest();
};

}  // namespace drift::test
