// Hosted-task states of heat2d and particles as TaskHost saves them for a migration or a
// checkpoint (sdk/hosted_task_state.h: task state, then channel state), taken after every task
// started and received its partners' first messages, with one early message held. Built the same
// way on every architecture, so their bytes must be identical everywhere (docs/architecture.md §10).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <drift/status.h>
#include "protocol/wire_types.h"

namespace drift::cross {

struct SampleTaskState {
  std::string name;  // unique, e.g. "heat2d-2"; the file name of its state
  JobSpec spec;      // validated: defaults filled in
  std::uint32_t index = 0;
  std::vector<std::uint8_t> bytes;
  // What the task does when it is started again after a restore (its sends and contributions,
  // encoded portably): a restored copy must do exactly the same.
  std::vector<std::uint8_t> restart_trace;
};

const std::vector<SampleTaskState>& sample_task_states();

// Restores `bytes` into a fresh task of sample.spec/sample.index as TaskHost does (every byte
// consumed) and checks that saving it again gives `bytes` back and that, started again, it
// behaves as sample's own task does (restart_trace).
Status check_restores(const SampleTaskState& sample, std::span<const std::uint8_t> bytes);

}  // namespace drift::cross
