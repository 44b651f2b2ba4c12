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

// A client's request the daemon will not carry out for who the client is (its token's role, or
// the job not being its own): the request's type, the role it needs (0 user, 1 admin; the
// Role of node/net/access_token.h) and why, for people. driftctl exits with code 4.
struct Refused {
  static constexpr MsgType kType = MsgType::kRefused;
  std::string request;
  std::uint8_t needed = 0;
  std::string message;

  friend bool operator==(const Refused&, const Refused&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(request, needed, message);
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
