#include "wave.h"

#include <cstdio>
#include <cstring>

namespace wave {

drift::Result<Params> read_params(drift::JobSpec& spec) {
  Params p;
  for (const auto& [key, value] : spec.params) {
    if (key != "points") return drift::Status::error("unknown option --" + key);
  }
  if (auto it = spec.params.find("points"); it != spec.params.end()) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0' || n < 3 || n > 100000000) {
      return drift::Status::error("points = '" + it->second + "': expected 3..100000000");
    }
    p.points = n;
  }
  spec.params["points"] = std::to_string(p.points);
  return p;
}

std::uint64_t segment_start(const Params& p, std::uint32_t tasks, std::uint32_t index) {
  return p.points * index / tasks;
}

// Only + - * /: IEEE 754 rounds them the same everywhere, where libm's exp or sin may differ in
// the last bit from one machine (or libc) to the next.
double initial_value(const Params& p, std::uint64_t i) {
  const double x = static_cast<double>(i) / static_cast<double>(p.points - 1);
  const double d = (x - 1.0 / 3) / 0.1;
  if (i == 0 || i + 1 == p.points || d <= -1 || d >= 1) return 0.0;
  const double w = 1 - d * d;
  return w * w;
}

std::string checksum(const std::vector<double>& values) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (double v : values) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    for (int b = 0; b < 8; ++b) {
      h ^= (bits >> (8 * b)) & 0xff;
      h *= 0x100000001b3ULL;
    }
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

}  // namespace wave
