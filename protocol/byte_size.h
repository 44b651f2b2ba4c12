// Byte sizes as people write them: a decimal number, optionally followed by K, M, G or T
// (powers of 1024), e.g. "64M". Shared by the applications' options (apps/common) and the
// runtime options the daemon reads (a job's memory estimate).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace drift {

// A plain decimal number (digits only); nullopt otherwise or if it does not fit in 64 bits.
std::optional<std::uint64_t> parse_decimal(std::string_view text);
// The bytes `text` says; nullopt if it is not such a size or does not fit in 64 bits.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

}  // namespace drift
