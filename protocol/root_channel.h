// Step reductions reach tasks as messages on a virtual channel from the job's root (sender index
// kRootSender, seq = step + 1), so they are ordered, deduplicated and forwarded like any other
// message. A reduction marked as a checkpoint (kCheckpointTag) makes the task save its state just
// before taking it. Defined once for the daemon that sends them and the worker that takes them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <drift/types.h>
#include "protocol/messages.h"

namespace drift {

inline constexpr std::uint32_t kRootSender = 0xffffffffu;
inline constexpr std::uint32_t kReducedTag = 0xffffffffu;
inline constexpr std::uint32_t kCheckpointTag = 0xfffffffeu;  // a reduction to checkpoint before

// What a reduction message to a task carries: the combined values and the job's changes of
// decomposition that come with them (Task::regrain).
struct ReducedPayload {
  std::vector<double> values;
  std::vector<GrainChange> changes;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(values, changes);
  }
};

// The reduction of `step` as a message to `to` on the root's virtual channel.
inline TaskMessage reduction_message(TaskId to, std::uint64_t step,
                                     const std::shared_ptr<const std::vector<std::uint8_t>>& values,
                                     std::uint32_t generation = 0, bool checkpoint = false) {
  TaskMessage m;
  m.from = TaskId{to.job, kRootSender};
  m.to = to;
  m.seq = step + 1;
  m.tag = checkpoint ? kCheckpointTag : kReducedTag;
  m.generation = generation;
  m.payload = *values;
  return m;
}

}  // namespace drift
