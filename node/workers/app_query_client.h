// Asking an application's executable a question without a cluster (protocol/app_query.h):
// `APP --drift-query`, started contained like a worker (worker_launch.h), the query written to
// its stdin, its answer read from its stdout — at most a few MiB, decoded with a bounded
// archive — within a time limit; a program that exits without an answer, answers garbage or
// takes too long is reported with its exit status and the end of its stderr. The job's root asks
// it to check a job and to combine the tasks' results into the checksum. Network thread.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "node/workers/worker_launch.h"
#include "protocol/app_query.h"

namespace drift {

using AppAnswerHandler = std::function<void(Result<AppAnswer>)>;

// `cgroup_name`: the memory cgroup it runs in, when the containment makes them.
void ask_app(asio::io_context& io, const std::string& executable,
             const std::vector<std::string>& launcher, const Containment& containment,
             const AppQuery& query, std::chrono::milliseconds timeout, AppAnswerHandler done,
             const std::string& cgroup_name = "");

}  // namespace drift
