// The owner's commands (driftctl reclaim / release) and the daemon's answer. Part of
// WireMessage (messages.h).
#pragma once

#include <cstdint>
#include <string>

#include "protocol/msg_type.h"
#include <drift/wire_field.h>
#include "protocol/wire_types.h"

namespace drift {

// Client -> daemon: the owner takes the machine back (its tasks leave, it takes no work) or gives
// it to the pool again. Answered with an OwnerReply.
enum class OwnerAction : std::uint8_t { kReclaim = 0, kRelease = 1 };
inline constexpr std::uint8_t kOwnerActionMax = 1;
const char* to_string(OwnerAction a);

struct OwnerRequest {
  static constexpr MsgType kType = MsgType::kOwnerRequest;
  OwnerAction action = OwnerAction::kReclaim;

  friend bool operator==(const OwnerRequest&, const OwnerRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    wire_enum<kOwnerActionMax>(ar, action);
  }
};

// The daemon's owner state right after the request, and the tasks it still hosts.
struct OwnerReply {
  static constexpr MsgType kType = MsgType::kOwnerReply;
  std::uint32_t node = 0;
  std::string name;
  OwnerState state = OwnerState::kAvailable;
  std::uint32_t tasks = 0;
  std::string message;  // what happened, for people

  friend bool operator==(const OwnerReply&, const OwnerReply&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(node, name);
    wire_enum<kOwnerStateMax>(ar, state);
    ar(tasks, message);
  }
};

}  // namespace drift
