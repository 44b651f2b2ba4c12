// driftctl_main() (driftctl.h): splits global options from the command and dispatches.
#include "ctl/driftctl.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "ctl/cluster_command.h"
#include "ctl/command_line.h"
#include "ctl/connection_settings.h"
#include "ctl/exit_codes.h"
#include "ctl/fault_command.h"
#include "ctl/local_command.h"
#include "ctl/migrate_command.h"
#include "ctl/owner_command.h"
#include "ctl/jobs_command.h"
#include "ctl/run_command.h"
#include "ctl/status_command.h"
#include "ctl/top_command.h"
#include "ctl/tasks_command.h"
#include "ctl/token_command.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

constexpr const char* kCommands =
    "status, top, run, submit, jobs, attach, cancel, result, tasks, migrate, reclaim, release, "
    "token, cluster, local or fault";

po::options_description general_options() {
  po::options_description d("General options");
  auto add = d.add_options();
  add("help,h", "show this help");
  add("version", "print driftctl's version");
  return d;
}

int print_help(ConnectionSettings& settings) {
  std::cout
      << "Usage: driftctl [options] COMMAND [command options]\n\n"
         "drift turns idle workstations into one parallel machine; driftctl talks to its\n"
         "daemons (driftd).\n\n"
         "Commands:\n"
         "  status [--json]                   the cluster's members, their state and load\n"
         "  top [--interval S] [--once]       members and jobs, refreshed (a live status)\n"
         "  run APP [options] [--json]        run an application on the cluster\n"
         "  run APP --serial [options]        run the application's serial reference here\n"
         "  submit APP [options] [--name N]   start a job and return with its id\n"
         "  jobs [--all] [--json]             the jobs running or ended lately, yours or all\n"
         "  attach JOB                        follow a job to its end (Ctrl-C detaches)\n"
         "  cancel JOB                        end a job now (its owner or an admin)\n"
         "  result JOB [--json] [--forget]    a finished job's report (--forget: then drop it)\n"
         "  tasks [--json]                    the running jobs' tasks and where they live\n"
         "  migrate JOB:INDEX NODE_ID         move a running task to another node\n"
         "  reclaim [--wait]                  the owner takes the --node workstation back:\n"
         "                                    its tasks leave, it takes no work\n"
         "  release                           give the --node workstation back to the pool\n"
         "  token create NAME --role user|admin [--expires DAYS]\n"
         "                                    a person's token (needs the cluster secret)\n"
         "  cluster init [options]            make this PC the first member of a new cluster\n"
         "                                    (a new secret, its /etc/drift/driftd.conf)\n"
         "  cluster join-config --id N --address A\n"
         "                                    print the next PC's config, seeds filled in\n"
         "  local up --nodes N [options]      start N daemons on this machine\n"
         "  local down [--dir DIR]            stop them\n"
         "  fault run SCENARIO [--json]       start a cluster, run a failure-injection scenario\n"
         "                                    on it (conf/faults/), print the report\n"
         "  fault check SCENARIO...           parse scenario files only\n\n"
         "'driftctl COMMAND --help' describes a command's options.\n\n"
      << general_options() << "\n"
      << settings.options()
      << "\nExit codes: 0 ok, 1 the job or operation failed, 2 usage error, 3 cannot reach or\n"
         "authenticate with the daemon, or it did not answer in time, 4 the daemon refused the\n"
         "request for who you are (your token's role; a job that is not yours).\n"
         "Job ids print as hex with 0x (0x1e01d0001); migrate also takes them in decimal.\n";
  return kExitOk;
}

// Connection options that take a value, so that their value is not taken for the command.
bool takes_value(const std::string& option) {
  return option == "--node" || option == "--secret-file" || option == "--token-file" ||
         option == "--owner-socket" || option == "--cluster" || option == "--connect-timeout";
}

// Splits argv into the options before the command, the command, and the command's arguments.
void split_command(const std::vector<std::string>& args, std::vector<std::string>& global,
                   std::string& command, std::vector<std::string>& rest) {
  std::size_t i = 0;
  for (; i < args.size() && args[i].starts_with("-"); ++i) {
    global.push_back(args[i]);
    if (takes_value(args[i]) && i + 1 < args.size()) global.push_back(args[++i]);
  }
  if (i < args.size()) command = args[i++];
  rest.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
}

int dispatch(const std::string& command, const std::vector<std::string>& rest,
             const ConnectionSettings& settings) {
  if (command == "status") return status_command(rest, settings);
  if (command == "top") return top_command(rest, settings);
  if (command == "run") return run_command(rest, settings);
  if (command == "submit") return run_command(rest, settings, /*submit=*/true);
  if (command == "jobs" || command == "attach" || command == "cancel" || command == "result") {
    return jobs_command(command, rest, settings);
  }
  if (command == "tasks") return tasks_command(rest, settings);
  if (command == "migrate") return migrate_command(rest, settings);
  if (command == "reclaim" || command == "release") return owner_command(command, rest, settings);
  if (command == "cluster") return cluster_command(rest);
  if (command == "local") return local_command(rest);
  if (command == "fault") return fault_command(rest);
  if (command == "token") return token_command(rest, settings);
  std::cerr << "driftctl: unknown command '" << command << "' (expected " << kCommands
            << "; see 'driftctl --help')\n";
  return kExitUsage;
}

}  // namespace

int driftctl_main(int argc, char** argv) {
  std::vector<std::string> global, rest;
  std::string command;
  split_command(std::vector<std::string>(argv + 1, argv + argc), global, command, rest);
  // --json (of run, attach, result, jobs, status, fault run): failures as JSON on stdout too.
  failures_as_json(std::find(rest.begin(), rest.end(), "--json") != rest.end());
  auto settings = ConnectionSettings::from_environment();
  po::options_description options;
  options.add(general_options()).add(settings.options());
  po::variables_map vm;
  if (Status s = parse_args(global, options, {}, vm); !s) {
    std::cerr << "driftctl: " << s.message() << " (see 'driftctl --help')\n";
    return kExitUsage;
  }
  if (vm.count("version")) return std::cout << "driftctl 0.1.0\n", kExitOk;
  if (vm.count("help")) return print_help(settings);
  if (command.empty()) {
    std::cerr << "driftctl: missing a command (" << kCommands << "; see 'driftctl --help')\n";
    return kExitUsage;
  }
  return dispatch(command, rest, settings);
}

}  // namespace drift::ctl
