#include "protocol/frame_coalescing.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace drift {

namespace {

void append(std::vector<std::uint8_t>& to, const Frame& frame) {
  if (frame.head) to.insert(to.end(), frame.head->begin(), frame.head->end());
  to.insert(to.end(), frame.tail.begin(), frame.tail.end());
}

}  // namespace

Frame take_coalesced(std::deque<Frame>& queue) {
  Frame first = std::move(queue.front());
  queue.pop_front();
  if (first.size() >= kSmallFrame || queue.empty() || queue.front().size() >= kSmallFrame) {
    return first;
  }
  std::vector<std::uint8_t> bytes;
  bytes.reserve(kCoalescedBytes);
  append(bytes, first);
  while (!queue.empty() && queue.front().size() < kSmallFrame &&
         bytes.size() + queue.front().size() <= kCoalescedBytes) {
    append(bytes, queue.front());
    queue.pop_front();
  }
  return make_frame(std::move(bytes));
}

}  // namespace drift
