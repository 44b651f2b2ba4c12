// `driftctl reclaim | release` (owner_command.h).
#include "ctl/owner_command.h"

#include <boost/program_options.hpp>
#include <iostream>
#include <functional>
#include <thread>

#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/owner_client.h"
#include "ctl/owner_socket_client.h"
#include "protocol/codec.h"
#include "ctl/status_query.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

constexpr auto kOwnerReplyTimeout = std::chrono::seconds(10);
constexpr auto kOwnerPollInterval = std::chrono::milliseconds(100);

void print_help(const std::string& command, const po::options_description& options) {
  if (command == "reclaim") {
    std::cout << "Usage: driftctl [--node HOST:PORT] reclaim [--wait] [--timeout S]\n\n"
                 "The owner takes the workstation at --node back: its tasks migrate to the\n"
                 "available nodes with the most spare capacity and it takes no new work until\n"
                 "'driftctl release', whatever its owner detector says. Prints the node's state\n"
                 "(draining while tasks leave, reclaimed once empty).\n"
                 "At your own PC, with no secret or token at hand, it goes through the\n"
                 "daemon's owner socket (/run/drift/driftd.sock; --owner-socket) if you may use\n"
                 "it (root, group drift-owners, or owner.users).\n\n";
  } else {
    std::cout << "Usage: driftctl [--node HOST:PORT] release\n\n"
                 "Gives the workstation at --node back to the pool: it is available at once and\n"
                 "receives work again (also after a reclaim by its owner detector); later owner\n"
                 "activity suspends it again as its policy says.\n\n";
  }
  std::cout << options;
}

using StatusSource = std::function<Result<StatusReply>()>;

// Until node `id`, as its own daemon reports it, hosts no task; false at the deadline.
bool wait_until_empty(const StatusSource& query, std::uint32_t id, Clock::time_point deadline) {
  while (Clock::now() < deadline) {
    auto reply = query();
    const NodeStatus* self = reply ? find_node(*reply, id) : nullptr;
    if (self && self->load.task_count == 0) return true;
    std::this_thread::sleep_for(kOwnerPollInterval);  // a poll interval, not a synchronisation
  }
  return false;
}

}  // namespace

std::string owner_summary(const OwnerReply& reply) {
  std::string text = "node " + std::to_string(reply.node) + " (" + reply.name + "): " +
                     to_string(reply.state);
  if (reply.state == OwnerState::kDraining) {
    text += ", " + std::to_string(reply.tasks) + " task" + (reply.tasks == 1 ? "" : "s") +
            " leaving";
  }
  if (!reply.message.empty()) text += " (" + reply.message + ")";
  return text;
}

int owner_command(const std::string& command, const std::vector<std::string>& args,
                  ConnectionSettings settings) {
  const bool reclaim = command == "reclaim";
  bool wait = false;
  double timeout_s = 60;
  po::options_description options(reclaim ? "Reclaim options" : "Release options");
  auto add = options.add_options();
  if (reclaim) {
    add("wait", po::bool_switch(&wait), "return once every task has left the node");
    add("timeout", po::value<double>(&timeout_s)->value_name("S"),
        "longest --wait, seconds (default 60)");
  }
  add("help,h", "show this help");
  options.add(settings.options());
  po::variables_map vm;
  if (Status s = parse_args(args, options, {}, vm); !s) return usage_error(command, s.message());
  if (vm.count("help")) return print_help(command, options), kExitOk;
  if (!(timeout_s > 0) || timeout_s > 86400) {
    return usage_error(command, "--timeout '" + plain_number(timeout_s) + "' must be in (0, 86400]");
  }
  if (auto ep = settings.endpoint(); !ep) return usage_error(command, ep.error());
  const auto action = reclaim ? OwnerAction::kReclaim : OwnerAction::kRelease;
  Result<OwnerReply> reply = Status::error("not asked");
  StatusSource query;
  if (auto socket = settings.owner_socket_to_use()) {  // the person at this PC
    auto answer = ask_owner_socket(*socket, OwnerRequest{action}, kOwnerReplyTimeout);
    if (!answer) return report_failure(kExitConnection, answer.error());
    if (!std::holds_alternative<OwnerReply>(*answer)) {
      return report_failure(kExitConnection, *socket + " answered with " + to_string(type_of(*answer)));
    }
    reply = std::get<OwnerReply>(*answer);
    query = [path = *socket]() -> Result<StatusReply> {
      auto a = ask_owner_socket(path, StatusRequest{}, kOwnerReplyTimeout);
      if (!a) return a.status();
      if (!std::holds_alternative<StatusReply>(*a)) return Status::error("no status");
      return std::get<StatusReply>(*a);
    };
  } else {
    auto connect = settings.connect_options();
    if (!connect) return report_failure(settings.connect_failure_exit(), connect.error());
    reply = request_owner_action(*connect, action, Clock::now() + kOwnerReplyTimeout);
    if (!reply) return report_failure(kExitConnection, reply.error());
    query = [options = *connect] { return query_status(options, kOwnerReplyTimeout); };
  }
  std::cout << owner_summary(*reply) << "\n";
  if (!wait || reply->tasks == 0) return kExitOk;
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
  if (!wait_until_empty(query, reply->node, deadline)) {
    return report_failure(kExitFailed, "node " + std::to_string(reply->node) +
                                           " still hosts tasks after " +
                                           plain_number(timeout_s) + " s (--timeout)");
  }
  std::cout << "node " << reply->node << " (" << reply->name << "): empty\n";
  return kExitOk;
}

}  // namespace drift::ctl
