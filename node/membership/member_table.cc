#include "node/membership/member_table.h"

#include "node/membership/local_health.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace drift {

namespace {

// SWIM precedence: a higher incarnation wins; at equal incarnation dead > suspect > alive.
bool supersedes(const MemberInfo& claim, const MemberInfo& known) {
  if (claim.incarnation != known.incarnation) return claim.incarnation > known.incarnation;
  return static_cast<int>(claim.state) > static_cast<int>(known.state);
}

void adopt_address(MemberInfo& known, const MemberInfo& claim) {
  if (!claim.name.empty()) known.name = claim.name;
  if (!claim.address.empty()) known.address = claim.address;
  if (!claim.arch.empty()) known.arch = claim.arch;
}

bool contains(const std::vector<MemberInfo>& infos, std::uint32_t id) {
  return std::any_of(infos.begin(), infos.end(),
                     [id](const MemberInfo& i) { return i.node_id == id; });
}

}  // namespace

MemberTable::MemberTable(MemberInfo self, PhiAccrualDetector::Params detector,
                         std::chrono::milliseconds suspect_timeout, std::size_t group_size)
    : MemberTable(std::move(self), detector,
                  SuspectTimeout{suspect_timeout, suspect_timeout, 0, 1, 1, {}}, group_size) {}

MemberTable::MemberTable(MemberInfo self, PhiAccrualDetector::Params detector,
                         SuspectTimeout suspect_timeout, std::size_t group_size)
    : self_id_(self.node_id),
      detector_params_(detector),
      suspect_timeout_(suspect_timeout),
      group_size_(group_size),
      identity_since_(self.incarnation) {
  self.state = MemberState::kAlive;
  Member& me = members_[self_id_];
  me.info = std::move(self);
  me.heard = true;
  me.gossip_rounds_left = gossip_rounds();  // a new member's first beats say who it is
}

const MemberInfo& MemberTable::self() const { return members_.at(self_id_).info; }

Member& MemberTable::self_entry() { return members_.at(self_id_); }

std::vector<MemberTransition> MemberTable::merge(const MemberInfo& info, TimePoint now,
                                                 std::uint32_t reporter) {
  if (info.node_id == self_id_) return refute(info);
  const auto it = members_.find(info.node_id);
  if (it == members_.end()) return learn(info, now);
  Member& m = it->second;
  if (!supersedes(info, m.info)) {
    if (m.info.address.empty() || m.info.arch.empty()) adopt_address(m.info, info);
    return {};
  }
  if (info.state == MemberState::kDead && m.info.state != MemberState::kDead &&
      reporter != info.node_id && !has_quorum()) {
    ++deaths_disbelieved_;
    return {};
  }
  adopt_address(m.info, info);
  const MemberTransition t = change(m, info.state, info.incarnation, now);
  // Alive at a newer incarnation: it refuted a suspicion, so it was alive a moment ago. Judged
  // from its last heartbeat instead, a slow node (on the real-CPU testbed, a thirtieth of a core
  // at start-up) was suspected again 9 ms after its refutation arrived and declared dead 400 ms
  // later, while it refuted the next rumour.
  // And the new identity's first heartbeat gets the time a joiner's does: a slow node restarted
  // before it was declared dead took longer than the detector's half second to send it.
  if (info.state == MemberState::kAlive && m.detector) {
    m.detector->alive_at(now);
    m.first_heartbeat_due = now + suspect_timeout_.first_heartbeat;
    m.grace_from = now;
  }
  refresh_monitoring(now);
  return {t};
}

// Someone gossips about us. Only a claim that would beat our own entry needs an answer, except
// a death at any incarnation we held: someone acted on it (recovered our tasks), so we fence.
std::vector<MemberTransition> MemberTable::refute(const MemberInfo& claim) {
  Member& me = self_entry();
  if (claim.state == MemberState::kDead && claim.incarnation >= identity_since_) {
    me.info.incarnation = std::max(claim.incarnation, me.info.incarnation) + 1;
    identity_since_ = me.info.incarnation;
    me.gossip_rounds_left = gossip_rounds();
    return {{self_id_, MemberState::kDead, MemberState::kAlive, me.info.incarnation}};
  }
  const bool accused =
      claim.state != MemberState::kAlive && claim.incarnation >= me.info.incarnation;
  if (!accused && claim.incarnation <= me.info.incarnation) return {};
  me.info.incarnation = claim.incarnation + 1;
  me.gossip_rounds_left = gossip_rounds();
  return {{self_id_, claim.state, MemberState::kAlive, me.info.incarnation}};
}

std::vector<MemberTransition> MemberTable::learn(const MemberInfo& info, TimePoint now) {
  if (info.node_id == 0) return {};  // ids start at 1; 0 marks clients
  Member& m = members_[info.node_id];
  m.info = info;
  if (info.state == MemberState::kSuspect) m.suspect_since = now;
  if (info.state == MemberState::kDead) m.dead_incarnation = info.incarnation;
  m.gossip_rounds_left = gossip_rounds();
  refresh_monitoring(now);
  return {{info.node_id, info.state, info.state, info.incarnation, /*joined=*/true}};
}

MemberTransition MemberTable::change(Member& m, MemberState to, std::uint64_t incarnation,
                                     TimePoint now) {
  const MemberTransition t{m.info.node_id, m.info.state, to, incarnation};
  m.info.state = to;
  m.info.incarnation = incarnation;
  if (to == MemberState::kSuspect) m.suspect_since = now, m.confirmations.clear();
  if (to == MemberState::kDead) {
    m.detector.reset();
    m.dead_incarnation = std::max(m.dead_incarnation.value_or(0), incarnation);
  }
  m.gossip_rounds_left = gossip_rounds();
  return t;
}

std::vector<MemberTransition> MemberTable::heartbeat(std::uint32_t node_id,
                                                     std::uint64_t incarnation,
                                                     const LoadIndex& load, TimePoint now) {
  const auto it = members_.find(node_id);
  if (node_id == self_id_ || it == members_.end()) return {};
  Member& m = it->second;
  if (incarnation < m.info.incarnation) return {};
  const bool same = incarnation == m.info.incarnation;
  if (same && m.info.state == MemberState::kDead) return {};
  std::vector<MemberTransition> out;
  if (!same || m.info.state == MemberState::kSuspect) {
    out.push_back(change(m, MemberState::kAlive, incarnation, now));
    refresh_monitoring(now);
  }
  note_heartbeat(m, load, now);
  return out;
}

void MemberTable::note_heartbeat(Member& m, const LoadIndex& load, TimePoint now) {
  m.load = load;
  m.heard = true;
  m.last_heartbeat = now;
  if (!m.detector) {
    m.first_heartbeat_due = {};
    return;
  }
  if (m.detector_awaits_heartbeat) {
    // The start-of-monitoring mark is not an arrival; judge from real heartbeats only.
    m.detector.emplace(detector_params_);
    m.detector_awaits_heartbeat = false;
  }
  m.detector->heartbeat(now);
  // It beats, and the detector knows its rhythm: the detector judges it from now on.
  if (m.detector->intervals_learned() >= suspect_timeout_.intervals_to_learn) {
    m.first_heartbeat_due = {};
  }
}

std::vector<MemberTransition> MemberTable::tick(TimePoint now) {
  refresh_monitoring(now);
  std::vector<MemberTransition> out;
  const bool quorum = has_quorum();
  if (quorum && !had_quorum_) {
    for (auto& [id, m] : members_) {
      if (m.info.state == MemberState::kSuspect) m.suspect_since = now;
    }
  }
  had_quorum_ = quorum;
  for (auto& [id, m] : members_) {
    if (!m.detector) continue;
    if (auto t = detect(m, now, quorum)) out.push_back(*t);
  }
  if (!out.empty()) refresh_monitoring(now);
  return out;
}

bool MemberTable::has_quorum() const {
  std::size_t alive = 0, total = 0;
  std::uint32_t lowest = 0;
  bool lowest_alive = false;
  for (const auto& [id, m] : members_) {
    const bool self = id == self_id_;
    if (!self && m.info.state == MemberState::kDead) continue;
    const bool up = self || m.info.state == MemberState::kAlive;
    ++total;
    if (up) ++alive;
    if (total == 1 || id < lowest) {
      lowest = id;
      lowest_alive = up;
    }
  }
  return 2 * alive > total || (2 * alive == total && lowest_alive);
}

std::optional<MemberTransition> MemberTable::detect(Member& m, TimePoint now, bool quorum) {
  const MemberState state = m.info.state;
  if (now < m.first_heartbeat_due) return std::nullopt;  // its detector has yet to learn it
  if (state == MemberState::kAlive && m.detector->suspicious(now)) {
    return change(m, MemberState::kSuspect, m.info.incarnation, now);
  }
  if (state == MemberState::kSuspect && quorum && now - m.suspect_since >= suspect_deadline(m)) {
    return change(m, MemberState::kDead, m.info.incarnation, now);
  }
  return std::nullopt;
}

void MemberTable::refused(std::uint32_t node_id, TimePoint dialed, TimePoint now) {
  const auto it = members_.find(node_id);
  if (it == members_.end() || node_id == self_id_) return;
  Member& m = it->second;
  if (dialed < m.grace_from) return;
  m.first_heartbeat_due = std::min(m.first_heartbeat_due, now);
}

bool MemberTable::vouch(std::uint32_t node_id, std::uint64_t incarnation, TimePoint now) {
  const auto it = members_.find(node_id);
  if (it == members_.end() || node_id == self_id_) return false;
  Member& m = it->second;
  if (m.info.state != MemberState::kSuspect || incarnation < m.info.incarnation) return false;
  m.suspect_since = now;
  m.confirmations.clear();
  return true;
}

void MemberTable::peer_view(std::uint32_t from, int health,
                            const std::vector<std::uint32_t>& suspects) {
  const auto it = members_.find(from);
  if (from == self_id_ || it == members_.end() || it->second.info.state == MemberState::kDead) {
    return;
  }
  it->second.health = std::max(0, health);
  for (std::uint32_t id : suspects) {
    auto s = members_.find(id);
    if (id == from || s == members_.end() || s->second.info.state != MemberState::kSuspect) continue;
    s->second.confirmations.insert(from);
  }
}

std::vector<std::uint32_t> MemberTable::own_suspects(std::size_t max) const {
  std::vector<std::uint32_t> out;
  for (const auto& [id, m] : members_) {
    if (out.size() < max && m.monitored() && m.info.state == MemberState::kSuspect) {
      out.push_back(id);
    }
  }
  return out;
}

std::chrono::milliseconds MemberTable::suspect_deadline(const Member& m) const {
  const auto base = suspicion_timeout(suspect_timeout_.min, suspect_timeout_.max,
                                      m.confirmations.size(),
                                      expected_confirmations(m.info.node_id));
  const double peer = std::min(1.0 + m.health, suspect_timeout_.peer_stretch);
  const double own = std::min(1.0 + own_health_, suspect_timeout_.own_stretch);
  return std::chrono::milliseconds(
      std::llround(static_cast<double>(base.count()) * std::max(1.0, peer) * std::max(1.0, own)));
}

// How many members of our local group also watch `suspect` (it is in their local group too),
// at most SuspectTimeout::confirmations: the confirmations that can come.
std::size_t MemberTable::expected_confirmations(std::uint32_t suspect) const {
  std::vector<std::uint32_t> ring;  // as local_group() builds it
  for (const auto& [id, m] : members_) {
    if (id == self_id_ || m.info.state != MemberState::kDead) ring.push_back(id);
  }
  const std::size_t n = ring.size();
  const std::size_t per_side = (group_size_ + 1) / 2;
  const auto pos = [&](std::uint32_t id) {
    return static_cast<std::size_t>(std::lower_bound(ring.begin(), ring.end(), id) - ring.begin());
  };
  const std::size_t at = pos(suspect);
  std::size_t count = 0;
  for (std::uint32_t peer : local_group(group_size_)) {
    const auto it = members_.find(peer);
    if (peer == suspect || it == members_.end() || it->second.info.state != MemberState::kAlive) {
      continue;
    }
    const std::size_t d = (pos(peer) + n - at) % n;
    if (n - 1 <= 2 * per_side || std::min(d, n - d) <= per_side) ++count;
  }
  return std::min(count, suspect_timeout_.confirmations);
}

void MemberTable::resume_after_pause(TimePoint now) {
  for (auto& [id, m] : members_) {
    if (m.info.state == MemberState::kSuspect) m.suspect_since = now;
    if (!m.detector) continue;
    m.detector.emplace(detector_params_);
    m.detector->heartbeat(now);
    m.detector_awaits_heartbeat = true;
    m.first_heartbeat_due = now;  // its heartbeats were coming: no grace beyond the detector's
  }
}

bool MemberTable::is_stale(std::uint32_t node_id, std::uint64_t incarnation) const {
  const Member* m = find(node_id);
  return m != nullptr && m->dead_incarnation && *m->dead_incarnation >= incarnation;
}

bool MemberTable::heard_within(std::uint32_t node_id, std::uint64_t incarnation, TimePoint now,
                               std::chrono::milliseconds window) const {
  const Member* m = find(node_id);
  if (m == nullptr || node_id == self_id_ || !m->heard) return false;
  if (m->info.state == MemberState::kDead || m->info.incarnation < incarnation) return false;
  return now - m->last_heartbeat <= window;
}

std::vector<const Member*> MemberTable::monitored_suspects() const {
  std::vector<const Member*> out;
  for (const auto& [id, m] : members_) {
    if (m.monitored() && m.info.state == MemberState::kSuspect) out.push_back(&m);
  }
  return out;
}

std::vector<std::uint32_t> MemberTable::alive_peers() const {
  std::vector<std::uint32_t> out;
  for (const auto& [id, m] : members_) {
    if (id != self_id_ && m.info.state == MemberState::kAlive) out.push_back(id);
  }
  return out;
}

// Starts a detector for each member entering the local group (judged from now, with the
// detector's first interval, once SuspectTimeout::first_heartbeat has passed without a heartbeat)
// and drops it for members that left.
void MemberTable::refresh_monitoring(TimePoint now) {
  const std::vector<std::uint32_t> group = local_group(group_size_);
  for (auto& [id, m] : members_) {
    const bool in_group = std::binary_search(group.begin(), group.end(), id);
    if (in_group && !m.detector) {
      m.detector.emplace(detector_params_);
      m.detector->heartbeat(now);
      m.detector_awaits_heartbeat = true;
      m.first_heartbeat_due = now + suspect_timeout_.first_heartbeat;
      m.grace_from = now;
    } else if (!in_group && m.detector) {
      m.detector.reset();
    }
  }
}

std::vector<std::uint32_t> MemberTable::local_group(std::size_t group_size) const {
  std::vector<std::uint32_t> ring;  // ascending ids, self included
  for (const auto& [id, m] : members_) {
    if (id == self_id_ || m.info.state != MemberState::kDead) ring.push_back(id);
  }
  const std::size_t n = ring.size();
  const std::size_t per_side = (group_size + 1) / 2;
  std::vector<std::uint32_t> group;
  if (n - 1 <= 2 * per_side) {
    std::copy_if(ring.begin(), ring.end(), std::back_inserter(group),
                 [this](std::uint32_t id) { return id != self_id_; });
    return group;
  }
  const std::size_t pos = std::lower_bound(ring.begin(), ring.end(), self_id_) - ring.begin();
  for (std::size_t step = 1; step <= per_side; ++step) {
    group.push_back(ring[(pos + step) % n]);
    group.push_back(ring[(pos + n - step) % n]);
  }
  std::sort(group.begin(), group.end());
  return group;
}

std::uint32_t MemberTable::gossip_rounds() const {
  return static_cast<std::uint32_t>(std::bit_width(members_.size())) + 2;  // ceil(log2(N+1)) + 2
}

std::vector<MemberInfo> MemberTable::gossip(std::size_t max, std::size_t rotating,
                                            bool with_self) {
  std::vector<MemberInfo> out;
  if (max == 0) return out;
  Member& me = self_entry();
  if (me.gossip_rounds_left > 0 || with_self) {
    out.push_back(me.info);
    if (me.gossip_rounds_left > 0) --me.gossip_rounds_left;
  }
  take_changes(out, max);
  take_rotating_slice(out, std::min(max, out.size() + rotating));
  return out;
}

// Recent changes first; the most recent (most rounds left) before older ones, then by id.
void MemberTable::take_changes(std::vector<MemberInfo>& out, std::size_t max) {
  std::vector<Member*> changed;
  for (auto& [id, m] : members_) {
    if (id != self_id_ && m.gossip_rounds_left > 0) changed.push_back(&m);
  }
  std::stable_sort(changed.begin(), changed.end(), [](const Member* a, const Member* b) {
    return a->gossip_rounds_left > b->gossip_rounds_left;
  });
  for (Member* m : changed) {
    if (out.size() >= max) return;
    out.push_back(m->info);
    --m->gossip_rounds_left;
  }
}

// Fills up with the entries after the last one sent, wrapping around, so all are covered in turn.
void MemberTable::take_rotating_slice(std::vector<MemberInfo>& out, std::size_t max) {
  auto it = members_.upper_bound(gossip_cursor_);
  for (std::size_t visited = 0; visited < members_.size() && out.size() < max; ++visited, ++it) {
    if (it == members_.end()) it = members_.begin();
    const std::uint32_t id = it->first;
    if (id == self_id_ || contains(out, id)) continue;
    out.push_back(it->second.info);
    gossip_cursor_ = id;
  }
}

const Member* MemberTable::find(std::uint32_t node_id) const {
  const auto it = members_.find(node_id);
  return it == members_.end() ? nullptr : &it->second;
}

std::vector<Member> MemberTable::members() const {
  std::vector<Member> out;
  out.reserve(members_.size());
  for (const auto& [id, m] : members_) out.push_back(m);
  return out;
}

void MemberTable::set_self_load(const LoadIndex& load) { self_entry().load = load; }

}  // namespace drift
