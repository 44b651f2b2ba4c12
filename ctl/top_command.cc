// `driftctl top` (top_command.h): status and jobs, asked again and shown every interval.
#include "ctl/top_command.h"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <ctime>
#include <iostream>
#include <thread>

#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/job_control.h"
#include "ctl/jobs_view.h"
#include "ctl/status_query.h"
#include "ctl/status_view.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

constexpr auto kTopAskTimeout = std::chrono::seconds(5);

void print_top_help(const po::options_description& options) {
  std::cout << "Usage: driftctl [connection options] top [--interval S] [--once] [--all]\n\n"
               "The cluster live: the members' table of 'driftctl status' and the jobs' table\n"
               "of 'driftctl jobs' (yours, or everyone's with --all), asked of the cluster again\n"
               "every S seconds. On a terminal the screen is redrawn; otherwise each frame\n"
               "follows the last. Ctrl-C ends it. The same view in a browser: the dashboard at\n"
               "the daemon's http.listen (http://127.0.0.1:7480/ by default).\n\n"
            << options;
}

std::string clock_text() {
  const std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof text, "%H:%M:%S", std::localtime(&now));
  return text;
}

// One frame; false (and the error printed) when the daemon at --node cannot be asked.
bool frame(const ConnectOptions& connect, bool all, bool screen) {
  auto status = query_status(connect, kTopAskTimeout);
  auto jobs = cluster_jobs(connect, all, kTopAskTimeout);
  std::string out;
  if (screen) out += "\x1b[H\x1b[2J";
  if (!status) {
    std::cerr << "driftctl: " << status.error() << "\n";
    return false;
  }
  std::size_t alive = 0;
  for (const NodeStatus& n : status->nodes) alive += n.member.state == MemberState::kAlive;
  out += "drift  " + std::to_string(status->nodes.size()) + " nodes, " + std::to_string(alive) +
         " alive  (as node " + std::to_string(status->responder) + " sees them)  " +
         clock_text() + "\n\n";
  out += status_table(*status);
  out += "\n";
  if (!jobs) {
    out += "jobs: " + jobs.error() + "\n";
  } else if (jobs->jobs.empty()) {
    out += all ? "no jobs\n" : "no jobs of yours (--all for everyone's)\n";
  } else {
    out += jobs_table(jobs->jobs);
  }
  if (jobs) {
    for (const std::string& who : jobs->unreachable) out += "could not ask " + who + "\n";
  }
  std::cout << out << (screen ? "" : "\n") << std::flush;
  return true;
}

}  // namespace

int top_command(const std::vector<std::string>& args, ConnectionSettings settings) {
  double interval_s = 2;
  po::options_description options("Top options");
  auto add = options.add_options();
  add("interval", po::value<double>(&interval_s)->value_name("S"),
      "seconds between refreshes (default 2; at least 0.2)");
  add("once", "show one frame and exit");
  add("all", "everyone's jobs, not only yours");
  add("help,h", "show this help");
  options.add(settings.options());
  po::variables_map vm;
  if (Status s = parse_args(args, options, {}, vm); !s) return usage_error("top", s.message());
  if (vm.count("help")) return print_top_help(options), kExitOk;
  if (!std::isfinite(interval_s) || interval_s < 0.2 || interval_s > 3600) {
    return usage_error("top", "--interval " + plain_number(interval_s) +
                                  ": expected seconds from 0.2 to 3600");
  }
  if (auto ep = settings.endpoint(); !ep) return usage_error("top", ep.error());
  auto connect = settings.connect_options();
  if (!connect) return report_failure(settings.connect_failure_exit(), connect.error());
  const bool screen = ::isatty(STDOUT_FILENO) == 1 && !vm.count("once");
  const bool all = vm.count("all") > 0;
  if (vm.count("once")) return frame(*connect, all, false) ? kExitOk : kExitConnection;
  const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(interval_s));
  for (auto next = std::chrono::steady_clock::now();; next += period) {
    if (!frame(*connect, all, screen)) return kExitConnection;
    std::this_thread::sleep_until(next + period);
  }
}

}  // namespace drift::ctl
