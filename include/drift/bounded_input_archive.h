// BoundedInputArchive reads what PortableOutputArchive wrote, from a bounded byte span (or from
// pieces read as one, for a state that arrived in chunks), and refuses hostile input by throwing
// WireError (docs/architecture.md §4): an endianness flag other than little-endian, reading past the end, a
// container or string length beyond the bytes left (which also refuses any length a 32-bit size_t
// cannot hold), a bool other than 0/1. No container is sized before its length has been checked
// against the bytes left, so decoding allocates at most a small multiple of the input size. Plain
// enums do not compile with this archive (Cereal's enum load_minimal finds no output archive to
// pair with); wire enums go through wire_enum().
#pragma once

#include <algorithm>
#include <bit>
#include <cereal/cereal.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <drift/wire_field.h>

namespace drift {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "mixed-endian hosts are not supported");
static_assert(sizeof(bool) == 1, "bool is one byte on the wire");

// Where a BoundedInputArchive reads its bytes from when they come in pieces that may still be
// arriving (a large task state, loaded while its chunks come in).
class PieceSource {
 public:
  virtual ~PieceSource() = default;
  // Bytes over all pieces; the archive's bound.
  virtual std::size_t total() const = 0;
  // The next piece in order, waiting for it if need be; throws to abort the decoding.
  virtual std::span<const std::uint8_t> next() = 0;
};

namespace detail {
// "1 byte", "3 bytes": for error messages.
inline std::string byte_count(std::uint64_t n) {
  return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

template <class T>
concept NonBoolArithmetic = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;
}  // namespace detail

class BoundedInputArchive
    : public cereal::InputArchive<BoundedInputArchive, cereal::AllowEmptyClassElision> {
 public:
  // Reads the leading flag byte written by PortableOutputArchive; it must say little-endian.
  explicit BoundedInputArchive(std::span<const std::uint8_t> bytes)
      : InputArchive(this), bytes_(bytes), total_(bytes.size()) {
    read_flag();
  }
  // Reads `pieces` one after the other as one input (a state that arrived in chunks, read
  // without first copying it together). The pieces must outlive the archive.
  explicit BoundedInputArchive(std::span<const std::span<const std::uint8_t>> pieces)
      : InputArchive(this), rest_(pieces) {
    for (const auto& piece : pieces) total_ += piece.size();
    read_flag();
  }
  // Reads the pieces `source` hands out, as they come. The source must outlive the archive.
  explicit BoundedInputArchive(PieceSource& source)
      : InputArchive(this), source_(&source), total_(source.total()) {
    read_flag();
  }

  std::size_t offset() const { return before_ + pos_; }
  std::size_t remaining() const { return total_ - offset(); }

  // Copies the next `size` bytes into `data`, an array of DataSize-byte little-endian values.
  template <std::size_t DataSize>
  void loadBinary(void* data, std::size_t size) {
    if (size > remaining()) {
      throw WireError("truncated at offset " + std::to_string(pos_) + ": " +
                      detail::byte_count(size) + " needed, " + std::to_string(remaining()) +
                      " left");
    }
    if (size == 0) return;
    if (size <= bytes_.size() - pos_) {
      std::memcpy(data, bytes_.data() + pos_, size);
      pos_ += size;
    } else {
      load_across_pieces(static_cast<std::uint8_t*>(data), size);
    }
    if constexpr (std::endian::native == std::endian::big && DataSize > 1) {
      auto* p = static_cast<std::uint8_t*>(data);
      for (std::size_t i = 0; i + DataSize <= size; i += DataSize) {
        std::reverse(p + i, p + i + DataSize);
      }
    }
  }

  // Reads a uint64 container length whose elements take at least `min_element_bytes` each, and
  // refuses it unless that many bytes are left. remaining() <= SIZE_MAX, so the result fits.
  std::size_t load_length(std::size_t min_element_bytes = 1) {
    const std::size_t at = pos_;
    std::uint64_t length = 0;
    loadBinary<sizeof(length)>(&length, sizeof(length));
    if (length > remaining() / min_element_bytes) {
      const std::string element =
          min_element_bytes == 1 ? ""
                                 : " of " + std::to_string(min_element_bytes) + "-byte elements";
      throw WireError("length " + std::to_string(length) + element + " at offset " +
                      std::to_string(at) + " exceeds the " + detail::byte_count(remaining()) +
                      " left");
    }
    return static_cast<std::size_t>(length);
  }

 private:
  void read_flag() {
    std::uint8_t little_endian = 0;
    loadBinary<1>(&little_endian, 1);
    if (little_endian != 1) {
      throw WireError("endianness flag " + std::to_string(little_endian) +
                      " is not 1 (little-endian)");
    }
  }

  // `size` <= remaining(), more than the current piece holds.
  void load_across_pieces(std::uint8_t* out, std::size_t size) {
    while (size > 0) {
      if (pos_ == bytes_.size()) {
        before_ += bytes_.size();
        if (!rest_.empty()) {
          bytes_ = rest_.front();
          rest_ = rest_.subspan(1);
        } else {
          bytes_ = source_->next();
        }
        pos_ = 0;
        if (bytes_.size() > total_ - before_) throw WireError("a piece runs past the total size");
      }
      const std::size_t n = std::min(size, bytes_.size() - pos_);
      if (n == 0) continue;  // an empty piece (its data() may be null: no memcpy from it)
      std::memcpy(out, bytes_.data() + pos_, n);
      pos_ += n;
      out += n;
      size -= n;
    }
  }

  std::span<const std::uint8_t> bytes_;                  // the piece being read
  std::span<const std::span<const std::uint8_t>> rest_;  // the pieces after it
  PieceSource* source_ = nullptr;                        // or where they come from
  std::size_t pos_ = 0;                                  // in bytes_
  std::size_t before_ = 0;                               // bytes of the pieces before bytes_
  std::size_t total_ = 0;
};

// Cereal finds the functions below by argument-dependent lookup on the archive type.

template <detail::NonBoolArithmetic T>
void CEREAL_LOAD_FUNCTION_NAME(BoundedInputArchive& ar, T& t) {
  static_assert(!std::is_floating_point_v<T> || std::numeric_limits<T>::is_iec559,
                "wire floating point must be IEEE-754");
  static_assert(!std::is_same_v<T, long double>, "long double differs between platforms");
  static_assert(!std::is_same_v<T, char> && !std::is_same_v<T, wchar_t>,
                "raw char differs between platforms: use std::uint8_t or std::int8_t");
  ar.template loadBinary<sizeof(T)>(std::addressof(t), sizeof(T));
}

// A raw bool byte outside 0/1 would be undefined behaviour; wire types use wire_bool() anyway.
inline void CEREAL_LOAD_FUNCTION_NAME(BoundedInputArchive& ar, bool& b) {
  std::uint8_t raw = 0;
  ar.loadBinary<1>(&raw, 1);
  if (raw > 1) throw WireError("bool value " + std::to_string(raw) + " is neither 0 nor 1");
  b = raw == 1;
}

template <class T>
void CEREAL_LOAD_FUNCTION_NAME(BoundedInputArchive& ar, cereal::BinaryData<T>& bd) {
  using Element = std::remove_pointer_t<std::remove_reference_t<T>>;
  static_assert(!std::is_floating_point_v<Element> || std::numeric_limits<Element>::is_iec559,
                "wire floating point must be IEEE-754");
  ar.template loadBinary<sizeof(Element)>(bd.data, static_cast<std::size_t>(bd.size));
}

template <class T>
void CEREAL_LOAD_FUNCTION_NAME(BoundedInputArchive& ar, cereal::SizeTag<T>& tag) {
  tag.size = ar.load_length();
}

template <class T>
void CEREAL_SERIALIZE_FUNCTION_NAME(BoundedInputArchive& ar, cereal::NameValuePair<T>& nvp) {
  ar(nvp.value);
}

// Replaces Cereal's vector loaders (more specialized, so chosen): arithmetic elements must all be
// present before the vector is sized; other elements are appended as they decode, with at most
// the bytes left reserved up front.
template <class T, class A>
void CEREAL_LOAD_FUNCTION_NAME(BoundedInputArchive& ar, std::vector<T, A>& v) {
  if constexpr (std::is_arithmetic_v<T>) {
    const std::size_t n = ar.load_length(sizeof(T));
    v.resize(n);
    ar(cereal::binary_data(v.data(), n * sizeof(T)));
  } else {
    const std::size_t n = ar.load_length();
    v.clear();
    v.reserve(std::min(n, ar.remaining() / sizeof(T)));
    for (std::size_t i = 0; i < n; ++i) ar(v.emplace_back());
  }
}

template <class A>
void CEREAL_LOAD_FUNCTION_NAME(BoundedInputArchive& ar, std::vector<bool, A>& v) {
  const std::size_t n = ar.load_length();
  v.clear();
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    bool b = false;
    ar(b);
    v.push_back(b);
  }
}

}  // namespace drift

CEREAL_REGISTER_ARCHIVE(drift::BoundedInputArchive)
