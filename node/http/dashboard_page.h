// The dashboard (node/http/dashboard.html, built into driftd): one page that polls the node's
// /api/status, /api/jobs and /api/events every second and draws a tile per node, each node's
// share of the load over the last minutes, the jobs rooted at the node and its recent events.
// No script from elsewhere.
#pragma once

#include <string>

namespace drift {

const std::string& dashboard_page();

}  // namespace drift
