// How many questions to applications (app_query_client.h: each is a process) a node answers at
// once, and whose. At most kAtOnce run; a job's check (kValidate, asked when it is submitted)
// beyond that, or beyond kChecksPerOwner of the same owner's, is refused with a reason — its
// client may ask again — so that one user's flood of submissions leaves room for the others'.
// Any other question (a job's combine, asked once its every task has finished) waits for a slot
// instead: refusing it would fail a job whose work is all done. Those waiting are at most one
// per job rooted here and generation of it. Network thread only.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "protocol/app_query.h"

namespace drift {

class AppQuerySlots {
 public:
  static constexpr int kAtOnce = 8;
  static constexpr int kChecksPerOwner = 4;
  using Start = std::function<void()>;

  // Runs `start` now, or keeps it until a slot frees, or (a check) says why it may not run; each
  // `start` run must be followed by one release() of the same kind and owner.
  std::optional<std::string> take(AppQueryKind kind, const std::string& owner, Start start);
  // A question ended: its slot goes to the oldest one waiting.
  void release(AppQueryKind kind, const std::string& owner);

  int running() const { return running_; }
  std::size_t waiting() const { return waiting_.size(); }

 private:
  struct Waiting {
    AppQueryKind kind;
    std::string owner;
    Start start;
  };
  void run(AppQueryKind kind, const std::string& owner, const Start& start);

  int running_ = 0;
  std::map<std::string, int> checks_;  // owner -> checks running; no entry for none
  std::deque<Waiting> waiting_;
};

}  // namespace drift
