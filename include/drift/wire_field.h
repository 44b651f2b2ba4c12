// Serialization of the two field kinds Cereal does not check on load: enums (no range check) and
// bool (a raw byte; anything but 0/1 is undefined behaviour). Wire types always go through these,
// so a hostile value is refused with a WireError instead of producing an invalid object.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace drift {

// Thrown inside decoding only; codec.h turns it into an error Status.
class WireError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <std::uint8_t Max, class Archive, class E>
void wire_enum(Archive& ar, E& e) {
  static_assert(std::is_enum_v<E> && sizeof(std::underlying_type_t<E>) == 1,
                "wire enums are enum class : std::uint8_t");
  if constexpr (Archive::is_loading::value) {
    std::uint8_t raw = 0;
    ar(raw);
    if (raw > Max) {
      throw WireError("enum value " + std::to_string(raw) + " out of range 0.." +
                      std::to_string(Max));
    }
    e = static_cast<E>(raw);
  } else {
    std::uint8_t raw = static_cast<std::uint8_t>(e);
    ar(raw);
  }
}

template <class Archive>
void wire_bool(Archive& ar, bool& b) {
  if constexpr (Archive::is_loading::value) {
    std::uint8_t raw = 0;
    ar(raw);
    if (raw > 1) throw WireError("bool value " + std::to_string(raw) + " is neither 0 nor 1");
    b = raw == 1;
  } else {
    std::uint8_t raw = b ? 1 : 0;
    ar(raw);
  }
}

}  // namespace drift
