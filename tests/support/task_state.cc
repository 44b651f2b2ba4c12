// Task state round trip (task_state.h).
#include "tests/support/task_state.h"

#include <cereal/details/helpers.hpp>
#include <string>

namespace drift::test_support {

std::vector<std::uint8_t> save_task_state(const Task& task) {
  PortableOutputArchive ar;
  task.save_state(ar);
  return std::move(ar).take_bytes();
}

Status restore_task_state(Task& task, std::span<const std::uint8_t> state) {
  try {
    BoundedInputArchive ar(state);
    task.load_state(ar);
    if (ar.remaining() != 0) {
      return Status::error(std::to_string(ar.remaining()) + " bytes left over at offset " +
                           std::to_string(ar.offset()));
    }
    return Status::ok();
  } catch (const WireError& e) {
    return Status::error(e.what());
  } catch (const cereal::Exception& e) {
    return Status::error(e.what());
  }
}

}  // namespace drift::test_support
