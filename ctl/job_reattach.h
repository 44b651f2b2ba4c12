// Finding a job's root again after losing it (docs/architecture.md §9): the root died and its deputy took
// the job over, or the root was declared dead and fenced itself. Asks the cluster's members, the
// ones a node names as the root first, with JobAttach until one answers that it is the job's
// root, or the deadline passes.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ctl/client_connection.h"
#include "node/net/endpoint.h"
#include "protocol/messages.h"

namespace drift::ctl {

struct Reattach {
  ConnectOptions options;               // secret, cluster, timeouts; `node` is replaced
  std::vector<MemberInfo> members;      // the cluster as a status reply listed it
  std::chrono::milliseconds patience{30000};  // how long to look for the new root
};

struct Attached {
  std::unique_ptr<ClientConnection> connection;
  JobNotice notice;  // the new root's kRootChanged
  std::optional<WireMessage> end;  // or the job's end (JobResult, JobFailed): it ended there
};

// `lost` is the address of the root that was lost (tried last); `steps_seen` the most steps of
// the job the client saw done.
Result<Attached> reattach_job(const Reattach& how, std::uint64_t job, const std::string& lost,
                              std::uint64_t steps_seen);

}  // namespace drift::ctl
