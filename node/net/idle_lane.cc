#include "node/net/idle_lane.h"

#include <optional>

namespace drift {

bool IdleLane::run_one() {
  if (steps_.empty()) return false;
  std::function<void()> step = std::move(steps_.front());
  steps_.pop_front();
  step();
  return true;
}

void run_with_idle_lane(asio::io_context& io, IdleLane& lane) {
  // While steps wait, the loop has work even if no handler or operation is outstanding (poll()
  // would otherwise stop it); once the lane is empty it ends as io.run() would.
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> lane_work;
  while (true) {
    if (lane.empty()) {
      lane_work.reset();
      if (io.run_one() == 0) return;  // stopped, or no work left
      continue;
    }
    if (!lane_work) lane_work.emplace(io.get_executor());
    io.poll();  // whatever is ready goes first
    if (io.stopped()) return;
    lane.run_one();
  }
}

}  // namespace drift
