// The bytes a hosted task is saved as, for a migration and a checkpoint alike: the task's own
// state (Task::save_state), then its channels' sequence state (receiver, then sender). Defined
// once, so a node of any architecture restores what any other saved (docs/architecture.md §4, §10), and the
// cross-architecture checks (tests/cross) write and read exactly what TaskHost does.
#pragma once

#include "sdk/channel_receiver.h"
#include <drift/task.h>
#include <drift/archives.h>
#include <drift/wire_field.h>

#include <exception>
#include <string>

namespace drift {

inline void save_hosted_task(PortableOutputArchive& ar, const Task& task, ChannelReceiver& receiver,
                             ChannelSender& sender) {
  task.save_state(ar);
  ar(receiver, sender);
}

// Throws what the archive or the task's own checks throw (cereal::Exception, WireError). The
// channels' state does not decode after the task's only when load_state read other than what
// save_state wrote: said so, since the offsets in the archive's error are then the runtime's.
inline void load_hosted_task(BoundedInputArchive& ar, Task& task, ChannelReceiver& receiver,
                             ChannelSender& sender) {
  task.load_state(ar);
  try {
    ar(receiver, sender);
  } catch (const std::exception& e) {
    throw WireError(std::string("the task's load_state reads other than its save_state writes "
                                "(the runtime's state after it then does not decode: ") +
                    e.what() + ")");
  }
}

}  // namespace drift
