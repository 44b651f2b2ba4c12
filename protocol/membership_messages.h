// The messages of membership and failure detection (docs/architecture.md §5): the heartbeat
// with its gossip, and the indirect probes of a suspect. Part of WireMessage (messages.h).
#pragma once

#include <cstdint>
#include <vector>

#include "protocol/msg_type.h"
#include <drift/wire_field.h>
#include "protocol/wire_types.h"

namespace drift {

struct Heartbeat {
  static constexpr MsgType kType = MsgType::kHeartbeat;
  std::uint32_t from = 0;
  std::uint64_t incarnation = 0;
  std::uint64_t sequence = 0;
  LoadIndex load;
  // The sender's counters (driftctl status), on one beat in ten: they are read by people, not by
  // the failure detector, and were a fifth of every beat.
  bool has_counters = false;
  NodeCounters counters;
  // The sender's own entry when it changed (and now and then), recent changes to others, and a
  // small rotating slice of the rest of its member table.
  std::vector<MemberInfo> gossip;
  // Lifeguard (node/membership/local_health.h): the sender's health score (0 = healthy), and the
  // members its own failure detector suspects now (at most 16).
  std::uint8_t health = 0;
  std::vector<std::uint32_t> suspects;

  friend bool operator==(const Heartbeat&, const Heartbeat&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(from, incarnation, sequence, load);
    wire_bool(ar, has_counters);
    if (has_counters) ar(counters);
    ar(gossip, health, suspects);
  }
};

// Indirect probe (SWIM ping-req, docs/architecture.md §5). `origin` suspects `target` at `incarnation` and
// asks a helper to check it; the helper, unless it heard a heartbeat from the target lately,
// sends the same request on to the target, which answers from its running event loop (a stopped
// process completes TCP connects but never answers). `probe` is the origin's round id.
struct ProbeRequest {
  static constexpr MsgType kType = MsgType::kProbeRequest;
  std::uint64_t probe = 0;
  std::uint32_t origin = 0;
  std::uint32_t target = 0;
  std::uint64_t incarnation = 0;

  friend bool operator==(const ProbeRequest&, const ProbeRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(probe, origin, target, incarnation);
  }
};

enum class ProbeEvidence : std::uint8_t {
  kAnswered = 0,   // the target itself answered the probe
  kHeartbeat = 1,  // the witness heard a heartbeat from the target lately
};
inline constexpr std::uint8_t kProbeEvidenceMax = 1;
const char* to_string(ProbeEvidence e);

// The positive answer to a ProbeRequest: the target at `incarnation` is alive for `witness`.
// From the target to the helper, then from the helper (now the witness) to the origin. There is
// no negative answer: silence until the suspect timeout means dead.
struct ProbeAck {
  static constexpr MsgType kType = MsgType::kProbeAck;
  std::uint64_t probe = 0;
  std::uint32_t origin = 0;
  std::uint32_t target = 0;
  std::uint64_t incarnation = 0;
  std::uint32_t witness = 0;
  ProbeEvidence evidence = ProbeEvidence::kAnswered;

  friend bool operator==(const ProbeAck&, const ProbeAck&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(probe, origin, target, incarnation, witness);
    wire_enum<kProbeEvidenceMax>(ar, evidence);
  }
};

}  // namespace drift
