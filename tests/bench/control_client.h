// The benchmark's requests to a daemon that are answered by exactly one reply, on a connection
// of their own (the job's connection is busy streaming JobProgress): MigrateRequest ->
// MigrationReport and TasksRequest -> TasksReply. If a request fails (the daemon hung up, e.g.
// because it does not know the request, or timed out), the connection is dropped and the next
// request opens a new one. Errors name the request and the daemon.
#pragma once

#include <chrono>
#include <memory>

#include "ctl/client_connection.h"
#include "protocol/messages.h"
#include <drift/status.h>

namespace drift::bench {

class ControlClient {
 public:
  explicit ControlClient(ctl::ConnectOptions options) : options_(std::move(options)) {}

  // The daemon's report, also when it says the migration failed (report.ok == false).
  Result<MigrationReport> migrate(TaskId task, std::uint32_t dest,
                                  std::chrono::milliseconds timeout);
  Result<TasksReply> tasks(std::chrono::milliseconds timeout);

 private:
  template <class Reply, class Call>
  Result<Reply> request(const char* what, Call call);
  Status ensure_connected();

  ctl::ConnectOptions options_;
  std::unique_ptr<ctl::ClientConnection> connection_;
};

}  // namespace drift::bench
