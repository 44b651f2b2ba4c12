// Who each hosted task talks to (docs/architecture.md §8 phase 4, communication locality): counts of
// messages per (sender task, receiver task), fed from handler effects on the network thread, and
// halved every round so old traffic fades. The balancer prefers moving a task to where its
// partners live.
#pragma once

#include <map>

#include "protocol/wire_types.h"

namespace drift {

class PartnerBook {
 public:
  void record(TaskId from, TaskId to, double messages = 1) { book_[from][to] += messages; }
  void forget(TaskId task) { book_.erase(task); }
  void forget_job(std::uint64_t job);
  // Halves every count; a count below `floor` is dropped.
  void age(double floor = 0.01);
  // The task's partners and how much it sent to each (empty if unknown).
  const std::map<TaskId, double>& partners(TaskId task) const;

 private:
  std::map<TaskId, std::map<TaskId, double>> book_;
};

}  // namespace drift
