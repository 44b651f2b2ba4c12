// The two archives every wire body and every task state goes through (DESIGN.md §4):
// PortableOutputArchive writes Cereal portable binary, little-endian on every platform;
// BoundedInputArchive reads it back from a bounded buffer, refusing container lengths beyond the
// remaining bytes, truncation, and (with wire_field.h) bad bools and enums by throwing WireError.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "protocol/bounded_input_archive.h"
#include "protocol/portable_output_archive.h"
#include "protocol/status.h"

namespace drift {

// Encodes any Cereal-serializable value (app payloads, task states, results).
template <class T>
std::vector<std::uint8_t> encode_portable(const T& value);

// Decodes exactly the whole buffer into value; trailing bytes are an error.
template <class T>
Status decode_portable(std::span<const std::uint8_t> bytes, T& value);

}  // namespace drift
