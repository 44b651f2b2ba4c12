// pingpong's payload: `bytes` bytes of deterministic filler whose first 8 bytes carry the round
// number (little-endian), so the echo can be checked and the last payload hashed into a checksum
// the serial reference reproduces.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace drift::pingpong {

inline constexpr std::uint32_t kPingTag = 1;

// The payload of round 1.
std::vector<std::uint8_t> make_payload(std::uint32_t bytes);
void stamp_round(std::vector<std::uint8_t>& payload, std::uint64_t round);
// 0 when the payload is shorter than 8 bytes.
std::uint64_t round_of(std::span<const std::uint8_t> payload);

// The job's checksum from the last payload task 0 received and the rounds task 1 echoed.
std::uint64_t pingpong_checksum(std::uint64_t rounds, std::uint32_t bytes,
                                std::uint64_t last_payload_hash, std::uint64_t echoed);

}  // namespace drift::pingpong
