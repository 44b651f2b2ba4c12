// query_tasks() (tasks_query.h).
#include "ctl/tasks_query.h"

#include <variant>

#include "protocol/codec.h"

namespace drift::ctl {

Result<TasksReply> query_tasks(ClientConnection& connection, std::chrono::milliseconds timeout) {
  if (Status s = connection.send(TasksRequest{}); !s) return s;
  auto msg = connection.receive(Clock::now() + timeout);
  if (!msg) return msg.status();
  if (auto* reply = std::get_if<TasksReply>(&*msg)) return std::move(*reply);
  return Status::error(connection.address() + " answered TasksRequest with " +
                       to_string(type_of(*msg)));
}

}  // namespace drift::ctl
