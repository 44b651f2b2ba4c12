// `driftctl migrate` (migrate_command.h): arguments, one round trip, one line of outcome.
#include "ctl/migrate_command.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <iostream>
#include <optional>

#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/migration_client.h"
#include "ctl/migration_view.h"
#include "ctl/task_id_text.h"
#include "ctl/tcp_stream.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

constexpr double kDefaultTimeoutS = 60;

struct MigrateArgs {
  std::vector<std::string> positional;
  double timeout_s = kDefaultTimeoutS;
};

po::options_description migrate_options(MigrateArgs& a) {
  po::options_description d("Migrate options");
  auto add = d.add_options();
  add("timeout", po::value<double>(&a.timeout_s)->value_name("SECONDS"),
      "how long to wait for the move to finish (default 60)");
  add("help,h", "show this help");
  return d;
}

void print_migrate_help(const po::options_description& options) {
  std::cout << "Usage: driftctl [connection options] migrate JOB:INDEX NODE_ID [--timeout S]\n\n"
               "Moves task INDEX of job JOB to node NODE_ID while the job runs, and prints\n"
               "e.g. 'moved 0x1a2b3c0001:5 from node 2 to node 3: 64.0 MiB in 0.087 s'\n"
               "(state size; time the task was frozen). JOB is written as 'run' and 'tasks'\n"
               "print it: hex with 0x, or decimal. 'driftctl tasks' lists the tasks.\n";
  options.print(std::cout);
}

// JOB:INDEX and NODE_ID, collected as they come so that a missing or extra one is our error.
po::options_description positional_options(MigrateArgs& a) {
  po::options_description d;
  d.add_options()("target", po::value<std::vector<std::string>>(&a.positional));
  return d;
}

// Parses into `a` and `request`; the exit code when that is all (usage error, --help).
std::optional<int> parse_command_line(const std::vector<std::string>& args,
                                      ConnectionSettings& settings, MigrateArgs& a,
                                      MigrateRequest& request) {
  po::options_description visible;
  visible.add(migrate_options(a)).add(settings.options());
  po::options_description all;
  all.add(visible).add(positional_options(a));
  po::positional_options_description positional;
  positional.add("target", -1);
  po::variables_map vm;
  if (Status s = parse_args(args, all, positional, vm); !s)
    return usage_error("migrate", s.message());
  if (vm.count("help")) return print_migrate_help(visible), kExitOk;
  auto target = parse_migrate_target(a.positional);
  if (!target) return usage_error("migrate", target.error());
  if (!(a.timeout_s > 0)) {
    return usage_error("migrate", "--timeout '" + plain_number(a.timeout_s) + "' must be > 0");
  }
  request = *target;
  return std::nullopt;
}

int report_outcome(const MigrateRequest& request, const MigrationReport& report) {
  if (!report.ok) {
    return report_failure(kExitFailed,
                          migration_failure(request.task, request.dest, report.reason));
  }
  std::cout << migration_summary(report) << "\n";
  return kExitOk;
}

int migrate(const MigrateRequest& request, const MigrateArgs& a, const ConnectOptions& connect) {
  auto connection = ClientConnection::open(connect);
  if (!connection) return report_failure(kExitConnection, connection.error());
  const auto deadline = deadline_after(a.timeout_s);
  auto report = request_migration(**connection, request, deadline);
  if (report) return report_outcome(request, *report);
  if (Clock::now() < deadline) return report_failure(kExitConnection, report.error());
  return report_failure(kExitConnection,
                        report.error() + " after " + plain_number(a.timeout_s) +
                            " s (--timeout); the move may still finish: see 'driftctl tasks'");
}

}  // namespace

Result<std::uint32_t> parse_node_id(const std::string& text) {
  std::uint32_t id = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, id);
  if (text.empty() || ec != std::errc() || ptr != end || id == 0) {
    return Status::error("NODE_ID '" + text +
                         "' is not a node id (a decimal number from 1 to 4294967295)");
  }
  return id;
}

Result<MigrateRequest> parse_migrate_target(const std::vector<std::string>& positional) {
  if (positional.size() != 2) {
    return Status::error("expected JOB:INDEX NODE_ID, got " + std::to_string(positional.size()) +
                         " argument" + (positional.size() == 1 ? "" : "s"));
  }
  auto task = parse_task_id(positional[0]);
  if (!task) return task.status();
  auto dest = parse_node_id(positional[1]);
  if (!dest) return dest.status();
  return MigrateRequest{*task, *dest};
}

int migrate_command(const std::vector<std::string>& args, ConnectionSettings settings) {
  MigrateArgs a;
  MigrateRequest request;
  if (auto done = parse_command_line(args, settings, a, request)) return *done;
  if (auto ep = settings.endpoint(); !ep) return usage_error("migrate", ep.error());
  auto connect = settings.connect_options();
  if (!connect) return report_failure(settings.connect_failure_exit(), connect.error());
  return migrate(request, a, *connect);
}

}  // namespace drift::ctl
