// What a ballast task passes to ctx.finish(): the digest of its final state and its size.
#pragma once

#include <cstdint>

namespace drift::ballast {

struct BallastResult {
  std::uint64_t digest = 0;
  std::uint64_t state_bytes = 0;  // words * 8

  friend bool operator==(const BallastResult&, const BallastResult&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(digest, state_bytes);
  }
};

}  // namespace drift::ballast
