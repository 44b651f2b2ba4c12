// request_owner_action() (owner_client.h).
#include "ctl/owner_client.h"

#include <variant>

#include "protocol/codec.h"

namespace drift::ctl {

Result<OwnerReply> request_owner_action(ClientConnection& connection, OwnerAction action,
                                        Clock::time_point deadline) {
  if (Status s = connection.send(OwnerRequest{action}); !s) return s;
  auto msg = connection.receive(deadline);
  if (!msg) return Status::error(std::string(to_string(action)) + ": " + msg.error());
  if (auto* reply = std::get_if<OwnerReply>(&*msg)) return std::move(*reply);
  return Status::error(connection.address() + " answered OwnerRequest with " +
                       to_string(type_of(*msg)));
}

Result<OwnerReply> request_owner_action(const ConnectOptions& options, OwnerAction action,
                                        Clock::time_point deadline) {
  auto connection = ClientConnection::open(options);
  if (!connection) return connection.status();
  return request_owner_action(**connection, action, deadline);
}

}  // namespace drift::ctl
