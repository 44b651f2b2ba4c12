// The cluster secret on disk. Reading follows driftd's rule: the file's bytes with trailing
// whitespace trimmed, so "echo secret > file" and an editor's final newline give the same secret.
// Creating writes 32 random bytes (OpenSSL RAND_bytes), hex-encoded, mode 0600.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include <drift/status.h>

namespace drift::ctl {

// The error names the file and why it could not be used (missing, unreadable, empty).
Result<std::vector<std::uint8_t>> read_secret_file(const std::filesystem::path& file);

// Creates `file` with a fresh random secret unless it exists already (then it is reused as is).
Status ensure_secret_file(const std::filesystem::path& file);

}  // namespace drift::ctl
