// chatter's serial reference (chatter_serial.h).
#include "apps/chatter/chatter_serial.h"

#include "apps/chatter/chatter_message.h"
#include "apps/chatter/chatter_schedule.h"

namespace drift::chatter {

namespace {

struct Receiver {
  std::vector<std::uint64_t> last;  // per sender
  std::uint64_t hash = 0;
  ChatterResult result;
};

void deliver(const Params& p, std::uint32_t from, std::uint32_t to, std::uint64_t step,
             Receiver& r) {
  const ChatterMessage m{++r.last[from], step, make_filler(from, to, r.last[from], p.payload)};
  r.hash += message_digest(from, to, m);
  ++r.result.messages;
  r.result.bytes += m.filler.size();
}

}  // namespace

std::vector<ChatterResult> serial_results(const Params& p) {
  std::vector<Receiver> receivers(p.tasks);
  for (auto& r : receivers) r.last.assign(p.tasks, 0);
  for (std::uint64_t step = 0; step < p.steps; ++step) {
    for (std::uint32_t from = 0; from < p.tasks; ++from) {
      for (std::uint32_t to : targets(p, from, step)) deliver(p, from, to, step, receivers[to]);
    }
  }
  std::vector<ChatterResult> out;
  for (std::uint32_t i = 0; i < p.tasks; ++i) {
    Receiver& r = receivers[i];
    r.result.digest = receiver_digest(i, r.last, r.hash);
    out.push_back(r.result);
  }
  return out;
}

}  // namespace drift::chatter
