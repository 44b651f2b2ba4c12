// Whether a request's Host header names this machine's loopback (docs/architecture.md §13). The
// plain-HTTP endpoint answers anyone on the machine as its admin, so a web page elsewhere that
// points a name of its own at 127.0.0.1 (DNS rebinding) could read it from the owner's browser:
// such a page's requests carry its name, which this refuses. Pure.
#pragma once

#include <string>

namespace drift {

// "localhost", "127.0.0.1" (any of 127.0.0.0/8), "[::1]", each with an optional ":PORT".
bool loopback_host(const std::string& host);

}  // namespace drift
