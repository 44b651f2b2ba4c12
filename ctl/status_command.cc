// `driftctl status` (status_command.h): one StatusRequest, printed.
#include "ctl/status_command.h"

#include <boost/program_options.hpp>
#include <iostream>

#include "ctl/command_line.h"
#include "ctl/owner_socket_client.h"
#include "protocol/codec.h"
#include "ctl/exit_codes.h"
#include "ctl/status_query.h"
#include "ctl/status_view.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

constexpr auto kStatusReplyTimeout = std::chrono::seconds(10);

void print_status_help(const po::options_description& options) {
  std::cout << "Usage: driftctl [connection options] status [--json]\n\n"
               "Shows the cluster as the daemon at --node sees it: every member's id, name,\n"
               "address, state, incarnation, tasks, load, capacity, utilization, load average,\n"
               "free memory, and what it did for migration since it started: MIGR tasks moved\n"
               "out/in, MOVED task state sent, FWD messages forwarded to tasks that had left,\n"
               "LOCUPD location updates sent.\n"
               "STATE is suspect or dead when the failure detector says so, else the owner\n"
               "state: available (takes work), suspended (owner active: tasks paused),\n"
               "draining (tasks migrating away), reclaimed (owner's; no work). --json gives\n"
               "both halves too: \"member\" (alive|suspect|dead) and \"owner\".\n\n"
            << options;
}

}  // namespace

int status_command(const std::vector<std::string>& args, ConnectionSettings settings) {
  po::options_description options("Status options");
  auto add = options.add_options();
  add("json", "print JSON instead of a table");
  add("help,h", "show this help");
  options.add(settings.options());
  po::variables_map vm;
  if (Status s = parse_args(args, options, {}, vm); !s) return usage_error("status", s.message());
  if (vm.count("help")) return print_status_help(options), kExitOk;
  if (auto ep = settings.endpoint(); !ep) return usage_error("status", ep.error());
  Result<StatusReply> reply = Status::error("not asked");
  if (auto socket = settings.owner_socket_to_use()) {
    auto answer = ask_owner_socket(*socket, StatusRequest{}, kStatusReplyTimeout);
    if (!answer) return report_failure(kExitConnection, answer.error());
    if (!std::holds_alternative<StatusReply>(*answer)) {
      return report_failure(kExitConnection, *socket + " answered with " + to_string(type_of(*answer)));
    }
    reply = std::get<StatusReply>(*answer);
  } else {
    auto connect = settings.connect_options();
    if (!connect) return report_failure(settings.connect_failure_exit(), connect.error());
    reply = query_status(*connect, kStatusReplyTimeout);
    if (!reply) return report_failure(kExitConnection, reply.error());
  }
  if (vm.count("json")) {
    std::cout << status_json(*reply).dump() << "\n";
  } else {
    std::cout << status_table(*reply);
  }
  return kExitOk;
}

}  // namespace drift::ctl
