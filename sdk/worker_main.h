// An application's executable as a daemon's worker (`APP --drift-worker FD`): it talks to its
// daemon over the Unix socket FD (protocol/worker_messages.h), says it is ready, takes the job's
// setup, and hosts the job's tasks on this node (WorkerHost) until the daemon says stop or goes
// away. Returns the exit status: 0 after a stop, 3 when the daemon broke the protocol or vanished.
#pragma once

#include <drift/application.h>

namespace drift {

int run_worker(const Application& app, int fd);

}  // namespace drift
