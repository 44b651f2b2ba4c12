// The checked-in golden frames (golden_vectors.inc) as bytes, and the hex helpers that write and
// read them. A golden frame is the exact encoding of the sample message of the same name.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace drift::test {

struct GoldenFrame {
  std::string name;
  std::vector<std::uint8_t> bytes;  // frame header + body
};

const std::vector<GoldenFrame>& golden_frames();
const GoldenFrame& golden_frame(std::string_view name);

std::string to_hex(std::span<const std::uint8_t> bytes);
std::vector<std::uint8_t> from_hex(std::string_view hex);

}  // namespace drift::test
