// Whether this build runs under AddressSanitizer or ThreadSanitizer, for the few integration tests
// whose bounds only hold uninstrumented: a daemon's resident size (the sanitizers keep freed
// memory and map shadow memory, hundreds of MiB that are not ours) and how many steps of a job fit
// in a deadline (under ThreadSanitizer a heat2d step takes ~10x as long on the 2-core machine).
#pragma once

namespace drift::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif

}  // namespace drift::test
