// PortableOutputArchive: Cereal's PortableBinaryOutputArchive fixed to Options::LittleEndian(), so
// every platform writes identical bytes (docs/architecture.md §4), appending to an in-memory byte vector (or
// writing into a given streambuf).
// Layout: one flag byte (1 = little-endian), then each field little-endian with its own width;
// container and string lengths are uint64. Not thread-safe; one archive per encoding.
#pragma once

#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <cstdint>
#include <ios>
#include <ostream>
#include <streambuf>
#include <utility>
#include <vector>

namespace drift {

namespace detail {

// An unbuffered streambuf that appends everything written to a byte vector.
class ByteSink : public std::streambuf {
 public:
  explicit ByteSink(std::vector<std::uint8_t> prefix = {}) : bytes_(std::move(prefix)) {}
  std::vector<std::uint8_t>& bytes() { return bytes_; }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const auto* p = reinterpret_cast<const std::uint8_t*>(s);  // same bytes: a plain memmove
    bytes_.insert(bytes_.end(), p, p + n);
    return n;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      bytes_.push_back(static_cast<std::uint8_t>(traits_type::to_char_type(c)));
    }
    return traits_type::not_eof(c);
  }

 private:
  std::vector<std::uint8_t> bytes_;
};

// Constructed before the Cereal base so the archive can write its flag byte into it.
struct ByteSinkStream {
  explicit ByteSinkStream(std::vector<std::uint8_t> prefix)
      : sink(std::move(prefix)), stream(&sink) {}
  explicit ByteSinkStream(std::streambuf& out) : stream(&out) {}
  ByteSink sink;
  std::ostream stream;
};

}  // namespace detail

class PortableOutputArchive : private detail::ByteSinkStream,
                              public cereal::PortableBinaryOutputArchive {
 public:
  // `prefix` is kept in front of the archive's bytes (codec.cc reserves the frame header there).
  explicit PortableOutputArchive(std::vector<std::uint8_t> prefix = {})
      : detail::ByteSinkStream(std::move(prefix)),
        cereal::PortableBinaryOutputArchive(stream, Options::LittleEndian()) {}
  // Writes into `out` instead (e.g. a streambuf that passes the bytes on in pieces while they are
  // written); bytes() then stays empty. `out` must outlive the archive.
  explicit PortableOutputArchive(std::streambuf& out)
      : detail::ByteSinkStream(out),
        cereal::PortableBinaryOutputArchive(stream, Options::LittleEndian()) {}

  const std::vector<std::uint8_t>& bytes() const { return sink.bytes(); }
  // The prefix followed by everything written so far; the archive must not be used afterwards.
  std::vector<std::uint8_t> take_bytes() && { return std::move(sink.bytes()); }
};

}  // namespace drift
