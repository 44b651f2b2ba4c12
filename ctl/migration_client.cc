// request_migration() (migration_client.h).
#include "ctl/migration_client.h"

#include <variant>

#include "ctl/task_id_text.h"
#include "protocol/codec.h"

namespace drift::ctl {

Result<MigrationReport> request_migration(ClientConnection& connection,
                                          const MigrateRequest& request,
                                          Clock::time_point deadline) {
  if (Status s = connection.send(request); !s) return s;
  auto msg = connection.receive(deadline);
  const std::string what =
      "migrating " + format_task_id(request.task) + " to node " + std::to_string(request.dest);
  if (!msg) return Status::error(what + ": " + msg.error());
  if (auto* report = std::get_if<MigrationReport>(&*msg)) return std::move(*report);
  return Status::error(connection.address() + " answered MigrateRequest with " +
                       to_string(type_of(*msg)) + " while " + what);
}

}  // namespace drift::ctl
