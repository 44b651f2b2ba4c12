#include "node/net/admission.h"

#include <algorithm>

namespace drift {

namespace {

// Beyond this many remembered addresses, those with nothing pending and a full bucket (no
// different from a new one) are forgotten.
constexpr std::size_t kMaxSources = 4096;

}  // namespace

std::string Admission::admit(const std::string& address, TimePoint now) {
  if (pending_ >= limits_.max_pending) {
    return std::to_string(pending_) + " connections are already in their handshake (the most)";
  }
  if (sources_.size() >= kMaxSources) {
    std::erase_if(sources_, [&](const auto& entry) {
      const Source& s = entry.second;
      const double idle = std::chrono::duration<double>(now - s.refilled).count();
      return s.pending == 0 && s.tokens + idle * limits_.per_second >= limits_.burst;
    });
  }
  auto [it, fresh] = sources_.try_emplace(address);
  Source& s = it->second;
  if (fresh) {
    s.tokens = limits_.burst;
  } else {
    const double elapsed = std::chrono::duration<double>(now - s.refilled).count();
    s.tokens = std::min(limits_.burst, s.tokens + std::max(0.0, elapsed) * limits_.per_second);
  }
  s.refilled = now;
  if (s.pending >= limits_.max_pending_per_address) {
    return std::to_string(s.pending) + " connections from " + address +
           " are already in their handshake (the most from one address)";
  }
  if (s.tokens < 1) {
    return "more than " + std::to_string(static_cast<long>(limits_.per_second)) +
           " connections a second from " + address;
  }
  s.tokens -= 1;
  ++s.pending;
  ++pending_;
  return {};
}

Admission::Full Admission::full(const std::string& address, TimePoint now) const {
  const auto it = sources_.find(address);
  if (it != sources_.end()) {
    const Source& s = it->second;
    const double elapsed = std::max(0.0, std::chrono::duration<double>(now - s.refilled).count());
    if (std::min(limits_.burst, s.tokens + elapsed * limits_.per_second) < 1) return Full::kRate;
    if (s.pending >= limits_.max_pending_per_address) return Full::kAddress;
  }
  return pending_ >= limits_.max_pending ? Full::kAll : Full::kNo;
}

void Admission::settled(const std::string& address) {
  const auto it = sources_.find(address);
  if (it == sources_.end() || it->second.pending == 0 || pending_ == 0) return;
  --it->second.pending;
  --pending_;
}

}  // namespace drift
