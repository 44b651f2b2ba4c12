// Compile-only check (CMakeLists.txt): a plain enum field must not load through
// BoundedInputArchive, because Cereal's enum loader does no range check. Built as is, this file
// must fail with Cereal's "Could not find an associated output archive" error; built with
// -DDRIFT_USE_WIRE_ENUM it must compile.
#include <drift/archives.h>

namespace {

enum class Colour : std::uint8_t { kRed = 0, kBlue = 1 };

struct Paint {
  Colour colour = Colour::kRed;

  template <class Archive>
  void serialize(Archive& ar) {
#ifdef DRIFT_USE_WIRE_ENUM
    drift::wire_enum<1>(ar, colour);
#else
    ar(colour);
#endif
  }
};

}  // namespace

drift::Status load_paint(std::span<const std::uint8_t> bytes, Paint& paint) {
  return drift::decode_portable(bytes, paint);
}
