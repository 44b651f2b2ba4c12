// chatter's message (chatter_message.h).
#include "apps/chatter/chatter_message.h"

#include <algorithm>

#include "apps/common/digest.h"
#include <drift/archives.h>

namespace drift::chatter {

std::vector<std::uint8_t> make_filler(std::uint32_t sender, std::uint32_t receiver,
                                      std::uint64_t counter, std::uint32_t bytes) {
  return apps::filler_bytes(apps::hash_words({sender, receiver, counter}), bytes);
}

std::vector<std::uint8_t> encode_message(std::uint32_t sender, std::uint32_t receiver,
                                         std::uint64_t counter, std::uint64_t step,
                                         std::uint32_t bytes) {
  return encode_portable(
      ChatterMessage{counter, step, make_filler(sender, receiver, counter, bytes)});
}

std::optional<std::string> filler_error(std::uint32_t sender, std::uint32_t receiver,
                                        const ChatterMessage& msg, std::uint32_t bytes) {
  if (msg.filler.size() != bytes) {
    return std::to_string(msg.filler.size()) + " filler bytes, expected " + std::to_string(bytes);
  }
  const auto expected = make_filler(sender, receiver, msg.counter, bytes);
  const auto diff = std::mismatch(expected.begin(), expected.end(), msg.filler.begin());
  if (diff.first == expected.end()) return std::nullopt;
  return "filler differs from byte " + std::to_string(diff.first - expected.begin()) +
         " on (corrupted)";
}

std::uint64_t message_digest(std::uint32_t sender, std::uint32_t receiver,
                             const ChatterMessage& msg) {
  apps::Digest d;
  d.add(sender).add(receiver).add(msg.counter).add(msg.step).add_bytes(msg.filler);
  return apps::mix64(d.value());
}

}  // namespace drift::chatter
