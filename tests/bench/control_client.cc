// One-reply requests to a daemon (control_client.h), through driftctl's own round trips
// (ctl::request_migration, ctl::query_tasks) on a connection that is reopened after a failure.
#include "tests/bench/control_client.h"

#include "ctl/migration_client.h"
#include "ctl/tasks_query.h"

namespace drift::bench {

Status ControlClient::ensure_connected() {
  if (connection_) return Status::ok();
  auto connection = ctl::ClientConnection::open(options_);
  if (!connection) return connection.status();
  connection_ = std::move(connection).value();
  return Status::ok();
}

template <class Reply, class Call>
Result<Reply> ControlClient::request(const char* what, Call call) {
  const std::string where = std::string(what) + " to " + options_.node.to_string();
  if (Status s = ensure_connected(); !s) return Status::error(where + ": " + s.message());
  Result<Reply> reply = call(*connection_);
  if (reply) return reply;
  connection_.reset();  // a fresh connection for the next request
  return Status::error(where + " failed: " + reply.error());
}

Result<MigrationReport> ControlClient::migrate(TaskId task, std::uint32_t dest,
                                               std::chrono::milliseconds timeout) {
  return request<MigrationReport>("MigrateRequest", [&](ctl::ClientConnection& c) {
    return ctl::request_migration(c, MigrateRequest{task, dest}, ctl::Clock::now() + timeout);
  });
}

Result<TasksReply> ControlClient::tasks(std::chrono::milliseconds timeout) {
  return request<TasksReply>("TasksRequest",
                             [&](ctl::ClientConnection& c) { return ctl::query_tasks(c, timeout); });
}

}  // namespace drift::bench
