// Membership state of one node (docs/architecture.md §5): the member list learned from handshakes and gossip
// (SWIM merge rules), failure detection over our local group, and the gossip to piggyback on
// heartbeats. Pure: time comes in as arguments. Not thread-safe; the network thread owns it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "node/membership/phi_accrual_detector.h"
#include "protocol/wire_types.h"

namespace drift {

struct Member {
  using TimePoint = std::chrono::steady_clock::time_point;

  MemberInfo info;
  LoadIndex load;
  bool heard = false;  // a heartbeat from it has arrived
  // Failure detection, only while the member is in our local group.
  std::optional<PhiAccrualDetector> detector;
  bool detector_awaits_heartbeat = false;  // started at monitoring time, no heartbeat since
  // Until its detector knows its rhythm, it is not suspected before this:
  // SuspectTimeout::first_heartbeat after it entered our group or came back at a newer
  // incarnation (refuted, or restarted); cleared by a heartbeat once the detector has learned
  // SuspectTimeout::intervals_to_learn of its intervals.
  TimePoint first_heartbeat_due{};
  TimePoint grace_from{};  // when that grace began (a refusal from before says nothing of it)
  TimePoint suspect_since{};  // reset by a positive indirect probe (vouch)
  TimePoint last_heartbeat{};
  // The highest incarnation at which this member was dead in our table: that identity never
  // speaks again (is_stale), even after a higher incarnation revived the member.
  std::optional<std::uint64_t> dead_incarnation;
  std::uint32_t gossip_rounds_left = 0;  // > 0: a recent change, sent before the rotating slice
  // Lifeguard (local_health.h): the health score it last sent, and the other members whose own
  // detectors suspect it too, since its current suspicion began.
  int health = 0;
  std::set<std::uint32_t> confirmations;

  bool monitored() const { return detector.has_value(); }
};

// A change of one member's entry. from == to means only the incarnation changed (a restart or a
// refutation). For ourselves, from == kDead means we were declared dead at an incarnation this
// process held: the daemon must fence (stop and drop its tasks) and rejoin at `incarnation`.
struct MemberTransition {
  std::uint32_t node_id = 0;
  MemberState from = MemberState::kAlive;
  MemberState to = MemberState::kAlive;
  std::uint64_t incarnation = 0;
  bool joined = false;  // first time we hear of this member (from is then meaningless)

  friend bool operator==(const MemberTransition&, const MemberTransition&) = default;
};

class MemberTable {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  // How long a suspect has before it is declared dead (Lifeguard, docs/architecture.md §5.2):
  // `max` with no other member confirming the suspicion, falling to `min` once `confirmations`
  // do; stretched by the suspect's own health score (at most `peer_stretch` times) and by ours.
  // A member entering our local group is not suspected before `first_heartbeat` has passed
  // without its first heartbeat (unless its address refuses connections: refused()): a node that
  // just started (or a neighbour that has yet to learn it is in our group) needs time to connect,
  // and a slow one far more than the detector's assumed first interval — at a thirtieth of a
  // core, the real-CPU testbed's node was suspected 0.5 s after it joined, before its first
  // heartbeat could come, and declared dead 0.4 s later. Nor does its first heartbeat end that
  // grace if the detector has yet to learn `intervals_to_learn` intervals of it: judged from the
  // assumed interval alone, a hundredth of a core that beat once and was then throttled for
  // 0.4 s was suspected 1.1 s after it joined (fault.slow-join, once in a clean-clone CI).
  struct SuspectTimeout {
    std::chrono::milliseconds min{400};
    std::chrono::milliseconds max{400};
    std::size_t confirmations = 3;
    double peer_stretch = 8;
    double own_stretch = 4;
    std::chrono::milliseconds first_heartbeat{3000};
    std::size_t intervals_to_learn = 3;
  };

  // group_size: how many neighbours we monitor and heartbeat (see local_group).
  MemberTable(MemberInfo self, PhiAccrualDetector::Params detector, SuspectTimeout suspect_timeout,
              std::size_t group_size = 8);
  // The plain timeout of earlier versions and of tests: min = max, no stretching, no wait for a
  // first heartbeat beyond the detector's.
  MemberTable(MemberInfo self, PhiAccrualDetector::Params detector,
              std::chrono::milliseconds suspect_timeout, std::size_t group_size = 8);

  const MemberInfo& self() const;

  // A member learned from a handshake or from gossip. SWIM merge: a higher incarnation wins; at
  // equal incarnation dead > suspect > alive; so a dead (id, incarnation) never comes back alive.
  // If someone claims we are suspect at our incarnation or higher (or knows us at a higher one),
  // we refute with incarnation = theirs + 1, returned as a transition to gossip. A claim that we
  // are dead at any incarnation this process held (since it started or last fenced) returns a
  // transition from kDead: we must fence, and take incarnation max(theirs, ours) + 1.
  // A claim that another member is dead is believed only while we have the quorum our own
  // detector needs to declare a death (has_quorum), unless `reporter`, the member whose gossip
  // carries it, says so of itself (it leaves); otherwise it is ignored (counted in
  // deaths_disbelieved) and believed when gossiped again once we have a quorum.
  std::vector<MemberTransition> merge(const MemberInfo& info, TimePoint now,
                                      std::uint32_t reporter = 0);
  std::uint64_t deaths_disbelieved() const { return deaths_disbelieved_; }

  // A heartbeat from a known member. Dropped if the incarnation is older than known, if the
  // member is dead at that incarnation, or if the member is unknown (merge its Hello first).
  // A newer incarnation revives it; a suspect member at the same incarnation becomes alive.
  std::vector<MemberTransition> heartbeat(std::uint32_t node_id, std::uint64_t incarnation,
                                          const LoadIndex& load, TimePoint now);

  // Advances failure detection for our local group: alive -> suspect when phi >= threshold,
  // suspect -> dead after suspect_timeout without a heartbeat, but only while we have a quorum;
  // when we regain one (we were on the cut-off side of a partition), every suspect's timeout
  // starts over: its silence while we were cut off says nothing about it. Call every heartbeat
  // interval.
  std::vector<MemberTransition> tick(TimePoint now);

  // Whether this node sees a majority of the members not yet dead (itself included) alive — or
  // exactly half, with the lowest id among them. Only then does it declare suspects dead: the
  // minority side of a partition keeps its suspicions, and when the partition heals it learns
  // that it was declared dead and fences itself; two halves never declare each other dead.
  bool has_quorum() const;

  // Nothing listens at `node_id`'s address (our connection was refused): its process is gone. A
  // member still awaiting its first heartbeat is judged from now on by the detector alone, so a
  // node that crashes right after it joined is not given SuspectTimeout::first_heartbeat.
  // `dialed`: when the refused connection was begun; one begun before the member's grace began
  // (before it restarted) is of the process that is gone, and changes nothing.
  void refused(std::uint32_t node_id, TimePoint dialed, TimePoint now);

  // A positive indirect probe: `node_id`, suspect at `incarnation` or older, was alive for
  // someone just now, so its suspicion starts over (it is not declared dead at the old deadline).
  // True if that changed anything.
  bool vouch(std::uint32_t node_id, std::uint64_t incarnation, TimePoint now);

  // What member `from` says in its heartbeat: its health score, and which members its own detector
  // suspects now (each a confirmation of our suspicion of it).
  void peer_view(std::uint32_t from, int health, const std::vector<std::uint32_t>& suspects);
  // Our own health score (local_health.h): our patience with the others stretches with it.
  void set_own_health(int score) { own_health_ = score; }
  // The members our own detector suspects now (sent on our heartbeats), at most `max`.
  std::vector<std::uint32_t> own_suspects(std::size_t max) const;
  // The time `m`, suspect now, has from its suspicion until it is declared dead.
  std::chrono::milliseconds suspect_deadline(const Member& m) const;

  // Our own event loop did not run for a while (SIGSTOP, an overloaded machine): the silence we
  // measured is ours, not theirs. Restarts every detector and suspicion clock from `now`.
  void resume_after_pause(TimePoint now);

  // Whether messages from (node_id, incarnation) must be dropped: that identity was declared
  // dead. An older incarnation that was never declared dead is the same process before it
  // refuted a suspicion, and stays valid.
  bool is_stale(std::uint32_t node_id, std::uint64_t incarnation) const;

  // Whether a heartbeat of `node_id` at `incarnation` or newer arrived within `window` of now
  // (a helper's answer to an indirect probe without asking the suspect).
  bool heard_within(std::uint32_t node_id, std::uint64_t incarnation, TimePoint now,
                    std::chrono::milliseconds window) const;

  // Members of our local group that are suspect now (those we probe indirectly), and the alive
  // members other than us (those who may help).
  std::vector<const Member*> monitored_suspects() const;
  std::vector<std::uint32_t> alive_peers() const;

  // Our local group: the nearest non-dead members around us on a ring ordered by node id,
  // ceil(group_size / 2) on each side (odd sizes round up so groups stay symmetric), or all of
  // them if there are not that many. Ordered by node id, never including self.
  std::vector<std::uint32_t> local_group(std::size_t group_size) const;

  // At most max entries for the next heartbeat: self if it changed lately or `with_self`, then
  // recent changes (each sent ceil(log2(N+1)) + 2 times), then up to `rotating` entries of a
  // rotating slice of the rest, so every entry is eventually sent. A change spreads with the
  // changes; the slice only repairs what a receiver missed, so it can be small.
  std::vector<MemberInfo> gossip(std::size_t max, std::size_t rotating, bool with_self);

  const Member* find(std::uint32_t node_id) const;
  std::vector<Member> members() const;  // including self, ordered by id
  void set_self_load(const LoadIndex& load);

 private:
  Member& self_entry();
  std::vector<MemberTransition> refute(const MemberInfo& claim);
  std::vector<MemberTransition> learn(const MemberInfo& info, TimePoint now);
  MemberTransition change(Member& m, MemberState to, std::uint64_t incarnation, TimePoint now);
  void note_heartbeat(Member& m, const LoadIndex& load, TimePoint now);
  void refresh_monitoring(TimePoint now);
  std::optional<MemberTransition> detect(Member& m, TimePoint now, bool quorum);
  std::uint32_t gossip_rounds() const;
  void take_changes(std::vector<MemberInfo>& out, std::size_t max);
  void take_rotating_slice(std::vector<MemberInfo>& out, std::size_t max);

  std::uint32_t self_id_;
  PhiAccrualDetector::Params detector_params_;
  std::size_t expected_confirmations(std::uint32_t suspect) const;
  SuspectTimeout suspect_timeout_;
  int own_health_ = 0;
  bool had_quorum_ = true;  // at the last tick
  std::uint64_t deaths_disbelieved_ = 0;  // gossiped deaths ignored for want of a quorum
  std::size_t group_size_;
  std::uint64_t identity_since_;  // our incarnation when this process started or last fenced
  std::map<std::uint32_t, Member> members_;  // including self
  std::uint32_t gossip_cursor_ = 0;          // last id sent in the rotating slice
};

}  // namespace drift
