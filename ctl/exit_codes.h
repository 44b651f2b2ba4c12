// driftctl's exit codes, the contract scripts rely on: 0 success, 1 the job or operation failed,
// 2 a usage error (bad option or value), 3 the daemon could not be reached or refused us, 4 the
// daemon refused the request for who we are (our token's role, or a job that is not ours), 77 a
// fault scenario that cannot run on this machine (CTest's and Automake's "skipped").
#pragma once

namespace drift::ctl {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitConnection = 3;
inline constexpr int kExitRefused = 4;
// How a daemon's Refused reads in an error message (client_connection.h), wherever the command
// put it in its own; report_failure gives such an error kExitRefused whatever code it was called
// with.
inline constexpr const char* kRefusedPrefix = "refused by ";
inline constexpr int kExitSkipped = 77;

}  // namespace drift::ctl
