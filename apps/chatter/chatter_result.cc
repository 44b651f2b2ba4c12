// chatter's per-task digest (chatter_result.h).
#include "apps/chatter/chatter_result.h"

#include "apps/common/digest.h"

namespace drift::chatter {

std::uint64_t receiver_digest(std::uint32_t receiver, std::span<const std::uint64_t> last_counters,
                              std::uint64_t received_hash) {
  apps::Digest d;
  d.add(receiver);
  for (std::uint64_t c : last_counters) d.add(c);
  return d.add(received_hash).value();
}

}  // namespace drift::chatter
