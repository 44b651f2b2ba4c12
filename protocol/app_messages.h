// Shipping an application's executable with its job (docs/architecture.md §11.6):
// driftctl offers each one (per architecture, named by its SHA-256) to the daemon it submits to,
// which keeps it in its cache unless it has it already; a node that needs one fetches it from
// a node that has it. Pieces are at most a state chunk; the receiver checks every offset and
// length against the announced size, and the hash once the last piece is in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drift/wire_field.h>
#include "protocol/msg_type.h"

namespace drift {

// Client -> daemon: an executable for `arch` of `size` bytes is coming, unless the daemon has
// it (AppOfferReply::have).
struct AppOffer {
  static constexpr MsgType kType = MsgType::kAppOffer;
  std::string sha256;  // 64 lowercase hex digits
  std::string arch;
  std::uint64_t size = 0;

  friend bool operator==(const AppOffer&, const AppOffer&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(sha256, arch, size);
  }
};

struct AppOfferReply {
  static constexpr MsgType kType = MsgType::kAppOfferReply;
  std::string sha256;
  bool have = false;   // cached already: send nothing
  std::string error;   // refused (too large, a bad hash): send nothing

  friend bool operator==(const AppOfferReply&, const AppOfferReply&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(sha256);
    wire_bool(ar, have);
    ar(error);
  }
};

// A piece of an executable: client -> daemon after an offer, node -> node after an AppFetch.
struct AppPiece {
  static constexpr MsgType kType = MsgType::kAppPiece;
  std::string sha256;
  std::uint64_t total = 0;
  std::uint64_t offset = 0;
  std::vector<std::uint8_t> bytes;

  friend bool operator==(const AppPiece&, const AppPiece&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(sha256, total, offset, bytes);
  }
};

// The executable arrived whole and matches its hash (ok), or why it was not kept. Daemon ->
// client after an upload; node -> node as the answer to an AppFetch it cannot serve.
struct AppStored {
  static constexpr MsgType kType = MsgType::kAppStored;
  std::string sha256;
  bool ok = false;
  std::string error;

  friend bool operator==(const AppStored&, const AppStored&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(sha256);
    wire_bool(ar, ok);
    ar(error);
  }
};

// Node -> node: send me that executable (AppPiece..., or AppStored{ok = false}).
struct AppFetch {
  static constexpr MsgType kType = MsgType::kAppFetch;
  std::string sha256;

  friend bool operator==(const AppFetch&, const AppFetch&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(sha256);
  }
};

}  // namespace drift
