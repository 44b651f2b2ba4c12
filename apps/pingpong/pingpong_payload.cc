// pingpong's payload (pingpong_payload.h).
#include "apps/pingpong/pingpong_payload.h"

#include "apps/common/digest.h"

namespace drift::pingpong {

std::vector<std::uint8_t> make_payload(std::uint32_t bytes) {
  std::vector<std::uint8_t> out = apps::filler_bytes(apps::hash_words({bytes}), bytes);
  stamp_round(out, 1);
  return out;
}

void stamp_round(std::vector<std::uint8_t>& payload, std::uint64_t round) {
  for (std::size_t i = 0; i < 8 && i < payload.size(); ++i) {
    payload[i] = static_cast<std::uint8_t>(round >> (8 * i));
  }
}

std::uint64_t round_of(std::span<const std::uint8_t> payload) {
  if (payload.size() < 8) return 0;
  std::uint64_t round = 0;
  for (int i = 7; i >= 0; --i) round = (round << 8) | payload[static_cast<std::size_t>(i)];
  return round;
}

std::uint64_t pingpong_checksum(std::uint64_t rounds, std::uint32_t bytes,
                                std::uint64_t last_payload_hash, std::uint64_t echoed) {
  return apps::hash_words({rounds, bytes, last_payload_hash, echoed});
}

}  // namespace drift::pingpong
