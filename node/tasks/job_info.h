// What a node knows of a job whose tasks it hosts: its id, root, generation (rollbacks so far,
// stamped on everything its tasks send) and spec. Immutable once made; a rollback makes a new one.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include <drift/types.h>

namespace drift {

struct JobInfo {
  std::uint64_t id = 0;
  std::uint32_t root = 0;
  std::uint32_t generation = 0;
  JobSpec spec;
};

// Jobs and where to tell them something: job -> {root, generation} (JobActivity at the sweep).
using JobRoots = std::map<std::uint64_t, std::pair<std::uint32_t, std::uint64_t>>;

}  // namespace drift
