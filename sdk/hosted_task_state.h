// The bytes a hosted task is saved as, for a migration and a checkpoint alike: the task's own
// state (Task::save_state), then its channels' sequence state (receiver, then sender). Defined
// once, so a node of any architecture restores what any other saved (docs/architecture.md §4, §10), and the
// cross-architecture checks (tests/cross) write and read exactly what TaskHost does.
#pragma once

#include "sdk/channel_receiver.h"
#include <drift/task.h>
#include <drift/archives.h>

namespace drift {

inline void save_hosted_task(PortableOutputArchive& ar, const Task& task, ChannelReceiver& receiver,
                             ChannelSender& sender) {
  task.save_state(ar);
  ar(receiver, sender);
}

// Throws what the archive or the task's own checks throw (cereal::Exception, WireError).
inline void load_hosted_task(BoundedInputArchive& ar, Task& task, ChannelReceiver& receiver,
                             ChannelSender& sender) {
  task.load_state(ar);
  ar(receiver, sender);
}

}  // namespace drift
