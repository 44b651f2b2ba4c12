// Files the daemon keeps across its restarts (checkpoint copies, ended jobs): written whole and
// synced under a temporary name, then renamed, so a crash leaves the old file or the new one;
// read back whole; named by 16 hex digits (a job id) or decimal numbers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <drift/status.h>

namespace drift {

// What a write in progress is named: PATH + kPartialSuffix (a crash may leave one).
inline constexpr const char* kPartialSuffix = ".partial";

// Writes `bytes` to `path` and syncs it (no rename).
Status write_synced(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes);
// Writes `bytes` to PATH.partial, syncs it and renames it to `path`.
Status write_durably(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes);
// The whole file; an error naming it if it cannot be read or is larger than `max_bytes`.
Result<std::vector<std::uint8_t>> read_all(const std::filesystem::path& path,
                                           std::uint64_t max_bytes = UINT64_MAX);
// "00000001a2b30001": a number as 16 lowercase hex digits.
std::string hex_name(std::uint64_t value);
// A whole name of decimal digits (base 10) or exactly 16 lowercase hex digits (base 16).
std::optional<std::uint64_t> number_of(const std::string& name, int base);

}  // namespace drift
