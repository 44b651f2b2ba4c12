// `driftctl tasks` (tasks_command.h): one TasksRequest, printed.
#include "ctl/tasks_command.h"

#include <boost/program_options.hpp>
#include <iostream>

#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/tasks_query.h"
#include "ctl/tasks_view.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

// The daemon asks every node hosting tasks; a dead one costs it its own timeout first.
constexpr auto kTasksReplyTimeout = std::chrono::seconds(15);

void print_tasks_help(const po::options_description& options) {
  std::cout << "Usage: driftctl [connection options] tasks [--json]\n\n"
               "Lists every task of every running job, sorted by job and index: JOB (as 'run'\n"
               "prints it), INDEX, NODE (where it runs), EPOCH (how often it moved), LOAD, and\n"
               "FORWARDED (messages that reached it through a node it had left).\n"
               "'driftctl migrate JOB:INDEX NODE_ID' moves one.\n\n"
            << options;
}

int print_tasks(const TasksReply& reply, bool json) {
  if (json) {
    std::cout << tasks_json(reply).dump() << "\n";
  } else {
    std::cout << tasks_table(reply);
  }
  return kExitOk;
}

}  // namespace

int tasks_command(const std::vector<std::string>& args, ConnectionSettings settings) {
  po::options_description options("Tasks options");
  auto add = options.add_options();
  add("json", "print JSON instead of a table");
  add("help,h", "show this help");
  options.add(settings.options());
  po::variables_map vm;
  if (Status s = parse_args(args, options, {}, vm); !s) return usage_error("tasks", s.message());
  if (vm.count("help")) return print_tasks_help(options), kExitOk;
  if (auto ep = settings.endpoint(); !ep) return usage_error("tasks", ep.error());
  auto connect = settings.connect_options();
  if (!connect) return report_failure(settings.connect_failure_exit(), connect.error());
  auto connection = ClientConnection::open(*connect);
  if (!connection) return report_failure(kExitConnection, connection.error());
  auto reply = query_tasks(**connection, kTasksReplyTimeout);
  if (!reply) return report_failure(kExitConnection, reply.error());
  return print_tasks(*reply, vm.count("json") > 0);
}

}  // namespace drift::ctl
