// The checkpoint copies this node keeps (docs/architecture.md §9): the state of a task at a step, as the
// task's own node (primary) or as its buddy. Copies stay until the root commits a newer step or
// the job rolls back or ends. Pure; network thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "protocol/wire_types.h"

namespace drift {

class CheckpointStore {
 public:
  using State = std::shared_ptr<const std::vector<std::uint8_t>>;

  // Keeps (or replaces) the copy of `task` at `step`.
  void put(TaskId task, std::uint64_t step, State state);
  // The copy of `task` at `step`, or null.
  State find(TaskId task, std::uint64_t step) const;
  // The root committed `step`: copies of the job's older steps are dropped.
  void commit(std::uint64_t job, std::uint64_t step);
  // The job rolled back to `step`: copies of later steps (never committed) are dropped.
  void discard_after(std::uint64_t job, std::uint64_t step);
  void drop_job(std::uint64_t job);
  void clear() { jobs_.clear(); }

  std::uint64_t bytes() const;
  std::size_t copies() const;
  // The jobs it has copies of, ascending.
  std::vector<std::uint64_t> jobs() const;
  // Steps the job has copies of here, ascending.
  std::vector<std::uint64_t> steps(std::uint64_t job) const;
  // Task indices the job has copies of here at `step`, ascending.
  std::vector<std::uint32_t> tasks(std::uint64_t job, std::uint64_t step) const;

 private:
  // job -> step -> task index -> state
  std::map<std::uint64_t, std::map<std::uint64_t, std::map<std::uint32_t, State>>> jobs_;
};

}  // namespace drift
