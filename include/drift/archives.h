// The two archives every wire body and every task state goes through (docs/architecture.md §4):
// PortableOutputArchive writes Cereal portable binary, little-endian on every platform;
// BoundedInputArchive reads it back from a bounded buffer, refusing container lengths beyond the
// remaining bytes, truncation, and (with wire_field.h) bad bools and enums by throwing WireError.
#pragma once

#include <cereal/details/helpers.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <drift/bounded_input_archive.h>
#include <drift/portable_output_archive.h>
#include <drift/status.h>

namespace drift {

// Encodes any Cereal-serializable value (app payloads, task states, results).
template <class T>
std::vector<std::uint8_t> encode_portable(const T& value);

// Decodes exactly the whole buffer into value; trailing bytes are an error. On error `value` may
// be partly overwritten.
template <class T>
Status decode_portable(std::span<const std::uint8_t> bytes, T& value);

template <class T>
std::vector<std::uint8_t> encode_portable(const T& value) {
  PortableOutputArchive ar;
  ar(value);
  return std::move(ar).take_bytes();
}

template <class T>
Status decode_portable(std::span<const std::uint8_t> bytes, T& value) {
  try {
    BoundedInputArchive ar(bytes);
    ar(value);
    if (ar.remaining() != 0) {
      return Status::error("trailing bytes: " + detail::byte_count(ar.remaining()) +
                           " after the value ended at offset " + std::to_string(ar.offset()));
    }
    return Status::ok();
  } catch (const WireError& e) {
    return Status::error(e.what());
  } catch (const cereal::Exception& e) {
    return Status::error(e.what());
  }
}

}  // namespace drift
