#include "node/workers/job_uids.h"

#include <limits>
#include <sstream>

namespace drift {

namespace {

std::optional<uid_t> parse_id(const std::string& text) {
  if (text.empty() || text.size() > 10 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const std::uint64_t v = std::stoull(text);
  // (uid_t)-1 means "unchanged" to setresuid, and 0 is root.
  if (v == 0 || v >= std::numeric_limits<uid_t>::max()) return std::nullopt;
  return static_cast<uid_t>(v);
}

}  // namespace

Result<UidRange> parse_uid_range(const std::string& text) {
  const auto dash = text.find('-');
  const auto bad = [&](const std::string& why) {
    return Status::error("'" + text + "': " + why);
  };
  if (dash == std::string::npos) return bad("expected FIRST-LAST, e.g. 2100000000-2100065535");
  const auto first = parse_id(text.substr(0, dash));
  const auto last = parse_id(text.substr(dash + 1));
  if (!first || !last) return bad("expected two user ids from 1 to 4294967294, FIRST-LAST");
  if (*first > *last) return bad("FIRST is above LAST");
  return UidRange{*first, *last};
}

bool range_mapped(const UidRange& range, const std::string& id_map) {
  std::istringstream in(id_map);
  std::uint64_t inside = 0, outside = 0, count = 0;
  while (in >> inside >> outside >> count) {
    if (range.first >= inside && std::uint64_t{range.last} < inside + count) return true;
  }
  return false;
}

JobUids::Lease& JobUids::Lease::operator=(Lease&& o) noexcept {
  if (this != &o) {
    if (owner_) owner_->give_back(uid_);
    owner_ = o.owner_;
    uid_ = o.uid_;
    o.owner_ = nullptr;
  }
  return *this;
}

JobUids::Lease::~Lease() {
  if (owner_) owner_->give_back(uid_);
}

Result<JobUids::Lease> JobUids::acquire(std::uint64_t job) {
  if (held_.size() >= range_.size()) {
    return Status::error("every one of worker.job_uids' " + std::to_string(range_.size()) +
                         " user ids (" + std::to_string(range_.first) + "-" +
                         std::to_string(range_.last) + ") is held by a job hosted here");
  }
  while (held_.count(next_)) next_ = next_ == range_.last ? range_.first : next_ + 1;
  const uid_t uid = next_;
  next_ = next_ == range_.last ? range_.first : next_ + 1;
  held_[uid] = job;
  return Lease(this, uid);
}

}  // namespace drift
