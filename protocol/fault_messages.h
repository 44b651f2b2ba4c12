// The test-only messages of failure injection: a client (driftctl fault run) changes the faults
// a daemon applies to the frames it sends. Part of WireMessage (messages.h).
#pragma once

#include <cstdint>
#include <string>

#include "protocol/msg_type.h"
#include <drift/wire_field.h>
#include "protocol/wire_types.h"

namespace drift {

// Client -> daemon, testing only (driftctl fault run): the test-only faults applied to the
// node-to-node frames this daemon sends, changed at run time. Refused unless the daemon was
// started with test.hooks = true. All zero: frames go out untouched.
struct FrameFaultsRequest {
  static constexpr MsgType kType = MsgType::kFrameFaultsRequest;
  double drop = 0;       // fraction of frames not sent, 0..1
  double duplicate = 0;  // fraction of frames sent twice, 0..1
  double delay_ms = 0;   // every frame held this long (order kept)

  friend bool operator==(const FrameFaultsRequest&, const FrameFaultsRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(drop, duplicate, delay_ms);
  }
};

struct FrameFaultsReply {
  static constexpr MsgType kType = MsgType::kFrameFaultsReply;
  bool applied = false;
  std::string text;  // what is in force now, or why the request was refused

  friend bool operator==(const FrameFaultsReply&, const FrameFaultsReply&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    wire_bool(ar, applied);
    ar(text);
  }
};

}  // namespace drift
