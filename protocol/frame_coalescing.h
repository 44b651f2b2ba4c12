// Small frames written together (docs/architecture.md §4). Over TLS each call that encrypts makes
// a record of its own, and the peer decrypts, and may wake, once per record; on a worker's socket
// a gathered write takes at most 32 frames. A burst of small frames (a worker's reports, a
// step's reductions for the tasks of a node) queued one behind the other is copied into one
// buffer instead: one record, and far fewer buffers per system call.
#pragma once

#include <cstddef>
#include <deque>

#include "protocol/out_frame.h"

namespace drift {

// Frames below this size are copied together...
inline constexpr std::size_t kSmallFrame = 4096;
// ...at most one TLS record's plaintext (16 KiB) of them at once.
inline constexpr std::size_t kCoalescedBytes = 16u << 10;

// Takes the front frame off `queue`, with the small frames right behind it if it is small itself:
// their bytes in order in one new frame. A large frame, or a small one followed by a large one,
// comes off alone and uncopied. `queue` must not be empty.
Frame take_coalesced(std::deque<Frame>& queue);

}  // namespace drift
