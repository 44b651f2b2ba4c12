// One-reply requests to a daemon (control_client.h).
#include "tests/bench/control_client.h"

#include "protocol/codec.h"

namespace drift::bench {

Status ControlClient::ensure_connected() {
  if (connection_) return Status::ok();
  auto connection = ctl::ClientConnection::open(options_);
  if (!connection) return connection.status();
  connection_ = std::move(connection).value();
  return Status::ok();
}

template <class Reply>
Result<Reply> ControlClient::request(const WireMessage& msg, std::chrono::milliseconds timeout) {
  const std::string what =
      std::string(to_string(type_of(msg))) + " to " + options_.node.to_string();
  if (Status s = ensure_connected(); !s) return Status::error(what + ": " + s.message());
  Status s = connection_->send(msg);
  if (s) {
    auto reply = connection_->receive(ctl::Clock::now() + timeout);
    if (reply && std::holds_alternative<Reply>(*reply)) return std::get<Reply>(std::move(*reply));
    s = reply ? Status::error(std::string("answered with ") + to_string(type_of(*reply)) +
                              " instead of " + to_string(Reply::kType))
              : reply.status();
  }
  connection_.reset();  // a fresh connection for the next request
  return Status::error(what + " failed: " + s.message());
}

Result<MigrationReport> ControlClient::migrate(TaskId task, std::uint32_t dest,
                                               std::chrono::milliseconds timeout) {
  return request<MigrationReport>(MigrateRequest{task, dest}, timeout);
}

Result<TasksReply> ControlClient::tasks(std::chrono::milliseconds timeout) {
  return request<TasksReply>(TasksRequest{}, timeout);
}

}  // namespace drift::bench
