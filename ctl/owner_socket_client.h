// driftctl's side of the owner's local socket (node/owner/owner_socket.h): one request (status,
// reclaim, release) to the daemon of this PC over a Unix socket, its answer back, with a deadline.
// The daemon knows who we are from the kernel; no secret, no token. A Refused answer is an error
// starting with kRefusedPrefix (exit_codes.h).
#pragma once

#include <chrono>
#include <string>

#include "protocol/messages.h"
#include <drift/status.h>

namespace drift::ctl {

// Where the package's daemon listens.
inline constexpr const char* kDefaultOwnerSocket = "/run/drift/driftd.sock";

Result<WireMessage> ask_owner_socket(const std::string& path, const WireMessage& request,
                                     std::chrono::milliseconds timeout);

}  // namespace drift::ctl
