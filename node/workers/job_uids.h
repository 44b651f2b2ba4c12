// A user id of its own for each job's workers on this node (docs/architecture.md §11.4). With
// every job's workers as one user (drift, or nobody), one user's job could read and write
// another's task state with process_vm_readv and kill its workers, which ended that job: a
// security probe did all three. Under a root daemon each job hosted here gets a uid (and the gid
// of the same number) from worker.job_uids that no other job hosted here has, for as long as it
// is hosted; a uid given back is the last to be given again, so a process a job left behind
// finds no new job under its uid soon. Pure; the network thread owns it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "drift/status.h"

namespace drift {

struct UidRange {
  uid_t first = 0;
  uid_t last = 0;
  std::uint64_t size() const { return std::uint64_t{last} - first + 1; }
};

// "FIRST-LAST" (both above 0, FIRST <= LAST); errors name the text.
Result<UidRange> parse_uid_range(const std::string& text);
// Whether every id of `range` is mapped in this process's user namespace, by the lines of
// /proc/self/uid_map (or gid_map): "inside outside count" each.
bool range_mapped(const UidRange& range, const std::string& id_map);

class JobUids {
 public:
  // `start` (a node id) picks where in the range it begins, so that daemons sharing a machine
  // (a local cluster run as root) seldom give the same uid; give those disjoint ranges to be
  // sure.
  explicit JobUids(UidRange range, std::uint64_t start = 0)
      : range_(range), next_(static_cast<uid_t>(range.first + (start * 4099) % range.size())) {}

  // Gives a uid back when it is destroyed.
  class Lease {
   public:
    Lease() = default;
    Lease(JobUids* owner, uid_t uid) : owner_(owner), uid_(uid) {}
    Lease(Lease&& o) noexcept : owner_(o.owner_), uid_(o.uid_) { o.owner_ = nullptr; }
    Lease& operator=(Lease&& o) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();
    explicit operator bool() const { return owner_ != nullptr; }
    uid_t uid() const { return uid_; }

   private:
    JobUids* owner_ = nullptr;
    uid_t uid_ = 0;
  };

  // A uid no live lease holds, the one after the last given (wrapping); an error when every
  // uid of the range is held.
  Result<Lease> acquire(std::uint64_t job);
  std::size_t held() const { return held_.size(); }
  const UidRange& range() const { return range_; }

 private:
  void give_back(uid_t uid) { held_.erase(uid); }

  UidRange range_;
  uid_t next_;
  std::map<uid_t, std::uint64_t> held_;  // uid -> the job holding it
};

}  // namespace drift
