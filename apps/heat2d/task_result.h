// What a heat2d task passes to ctx.finish(): its partial checksum (checksum.h) over the cells it
// owns, and the job's last reduction (the same on every task), kept for the outcome's details.
#pragma once

#include <cstdint>

namespace drift::heat2d {

struct TaskResult {
  std::uint64_t checksum = 0;
  double residual_sum_sq = 0;  // combined sum of squared changes of the last sweep
  double max_change = 0;       // combined largest absolute change of the last sweep

  friend bool operator==(const TaskResult&, const TaskResult&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(checksum, residual_sum_sq, max_change);
  }
};

}  // namespace drift::heat2d
