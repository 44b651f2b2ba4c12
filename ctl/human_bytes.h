// Byte counts for people, in binary units with one decimal: 512 -> "512 B",
// 1536 -> "1.5 KiB", 67108864 -> "64.0 MiB". Used by `status` (MOVED) and `migrate`.
#pragma once

#include <cstdint>
#include <string>

namespace drift::ctl {

std::string human_bytes(std::uint64_t bytes);

}  // namespace drift::ctl
