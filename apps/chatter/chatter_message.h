// The one message chatter tasks exchange. `counter` numbers the (sender, receiver) channel from 1
// across all steps; `filler` is `payload` bytes derived from (sender, receiver, counter), so the
// receiver can check every byte and any loss, duplicate, reordering or corruption shows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace drift::chatter {

inline constexpr std::uint32_t kChatterTag = 1;

struct ChatterMessage {
  std::uint64_t counter = 0;
  std::uint64_t step = 0;
  std::vector<std::uint8_t> filler;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(counter, step, filler);
  }
};

std::vector<std::uint8_t> make_filler(std::uint32_t sender, std::uint32_t receiver,
                                      std::uint64_t counter, std::uint32_t bytes);

// The encoded message the sender passes to ctx.send.
std::vector<std::uint8_t> encode_message(std::uint32_t sender, std::uint32_t receiver,
                                         std::uint64_t counter, std::uint64_t step,
                                         std::uint32_t bytes);

// Why `msg`'s filler is not the one (sender, receiver, msg.counter) and `bytes` call for, or
// nullopt when it is.
std::optional<std::string> filler_error(std::uint32_t sender, std::uint32_t receiver,
                                        const ChatterMessage& msg, std::uint32_t bytes);

// What one received message adds (wrapping) to its receiver's hash of everything received;
// a sum, so the order in which different channels interleave does not matter.
std::uint64_t message_digest(std::uint32_t sender, std::uint32_t receiver,
                             const ChatterMessage& msg);

}  // namespace drift::chatter
