// chatter's serial reference: the same schedule, counters and fillers as the tasks, without any
// runtime: just the arithmetic of what every task should receive.
#pragma once

#include <vector>

#include "apps/chatter/chatter_params.h"
#include "apps/chatter/chatter_result.h"

namespace drift::chatter {

// results[i] is what task i finishes with when every message arrives exactly once.
std::vector<ChatterResult> serial_results(const Params& params);

}  // namespace drift::chatter
