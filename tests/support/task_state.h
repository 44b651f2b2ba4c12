// A task's whole state to bytes and back through the protocol's portable archives, as migration
// and checkpoints do it: save_state into a PortableOutputArchive, load_state from a
// BoundedInputArchive that must consume every byte.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <drift/task.h>
#include <drift/status.h>

namespace drift::test_support {

std::vector<std::uint8_t> save_task_state(const Task& task);

// Errors: the archive refused the bytes (truncated, bad length, bad enum...), the task's own
// checks threw WireError, or bytes were left over.
Status restore_task_state(Task& task, std::span<const std::uint8_t> state);

}  // namespace drift::test_support
