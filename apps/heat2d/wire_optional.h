// An optional field of a heat2d task state on the wire: a wire bool (present or not, checked on
// load, wire_field.h), then the value when present.
#pragma once

#include <optional>

#include <drift/wire_field.h>

namespace drift::heat2d {

template <class Archive, class T>
void wire_optional(Archive& ar, std::optional<T>& value) {
  bool present = value.has_value();
  wire_bool(ar, present);
  if constexpr (Archive::is_loading::value) {
    value.reset();
    if (present) value.emplace();
  }
  if (present) ar(*value);
}

}  // namespace drift::heat2d
