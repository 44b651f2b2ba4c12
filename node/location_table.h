// Where each task of each job lives, as far as this node knows (DESIGN.md §7). Filled from the
// job's initial placement; migration (a later issue) updates it from location updates.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "protocol/wire_types.h"

namespace drift {

class LocationTable {
 public:
  void set_job(std::uint64_t job, std::vector<std::uint32_t> placement);
  void drop_job(std::uint64_t job);
  std::optional<std::uint32_t> node_of(TaskId task) const;

 private:
  std::map<std::uint64_t, std::vector<std::uint32_t>> jobs_;
};

}  // namespace drift
