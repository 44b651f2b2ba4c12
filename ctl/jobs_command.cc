// `driftctl jobs | attach | cancel | result` (jobs_command.h).
#include "ctl/jobs_command.h"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/job_client.h"
#include "ctl/job_control.h"
#include "ctl/interrupt_watch.h"
#include "ctl/job_output.h"
#include "ctl/jobs_view.h"
#include "ctl/progress_bar.h"
#include "ctl/task_id_text.h"
#include "observe/job_json.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

constexpr auto kAskTimeout = std::chrono::seconds(10);

struct JobsArgs {
  std::string job;
  bool all = false;
  bool json = false;
  bool forget = false;  // result --forget
};

const char* usage_of(const std::string& command) {
  if (command == "jobs") {
    return "Usage: driftctl [connection options] jobs [--all] [--json]\n\n"
           "Lists the jobs of every member: those running and those that ended within the\n"
           "root's jobs.keep_results (7 days by default). Yours only, unless --all. Columns:\n"
           "JOB id, NAME (--name, or the application), OWNER (a token's name, or\n"
           "cluster-secret), APP, STATE (queued, running, recovering, done, failed,\n"
           "cancelled), STEP done / steps, ELAPSED seconds (queued: waiting), NODES that\n"
           "hosted its tasks, ROOT node. Below the table, why each queued job waits.\n\n";
  }
  if (command == "attach") {
    return "Usage: driftctl [connection options] attach JOB [--json]\n\n"
           "Follows job JOB (as `jobs` lists it) to its end with the progress bar and report of\n"
           "`run`, from wherever its root is; a job that ended already reports at once.\n"
           "Ctrl-C detaches again; the job goes on (a second Ctrl-C within 2 s asks whether to\n"
           "cancel it). Only its owner or an admin may attach.\n\n";
  }
  if (command == "cancel") {
    return "Usage: driftctl [connection options] cancel JOB\n\n"
           "Ends job JOB now on every node; its attached client hears 'cancelled by NAME'.\n"
           "Only its owner or an admin may cancel it (exit 4 otherwise).\n\n";
  }
  return "Usage: driftctl [connection options] result JOB [--json] [--forget]\n\n"
         "The report of finished job JOB, as `run` printed it (exit 0); a job that failed or\n"
         "was cancelled says why (exit 1), one queued or still running says how far it is\n"
         "(exit 1). Results stay at the job's root and its deputy for jobs.keep_results after\n"
         "the end; --forget drops them there once printed (the job leaves `driftctl jobs`).\n\n";
}

int list_jobs(const ConnectOptions& connect, const JobsArgs& a) {
  auto jobs = cluster_jobs(connect, a.all, kAskTimeout);
  if (!jobs) return report_failure(kExitConnection, jobs.error());
  for (const std::string& who : jobs->unreachable) {
    std::fprintf(stderr, "driftctl: could not ask %s\n", who.c_str());
  }
  if (a.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const JobEntry& e : jobs->jobs) out.push_back(job_entry_json(e));
    std::cout << out.dump() << "\n";
    return kExitOk;
  }
  if (jobs->jobs.empty()) {
    std::cout << (a.all ? "no jobs\n" : "no jobs of yours (--all for everyone's)\n");
    return kExitOk;
  }
  std::cout << jobs_table(jobs->jobs);
  return kExitOk;
}

int attach(const FoundJob& found, bool json) {
  auto connection = ClientConnection::open(found.root);
  if (!connection) return report_failure(kExitConnection, connection.error());
  Reattach reattach{found.root, found.members};
  ProgressBar bar(stderr, ::isatty(STDERR_FILENO) == 1);
  InterruptWatch interrupts([&](std::uint64_t job) { return cancel_and_say(found.root, job); });
  interrupts.set_job(found.entry.job);
  auto end = attach_job(
      **connection, found.entry.job, found.entry.app,
      [&](const JobProgress& p) {
        if (!interrupts.interrupted()) bar.update(p.step, p.steps, p.values);
      },
      Clock::time_point::max(),
      [&](const JobNotice& n) {
        if (n.kind == JobNoticeKind::kRootChanged && n.node == found.entry.root) return;
        if (interrupts.interrupted()) return;
        bar.finish();
        print_notice(n);
      },
      &reattach);
  bar.finish();
  const auto hold = interrupts.hold_output();
  if (!end) return report_failure(kExitConnection, end.error());
  return print_job_end(*end, found.entry.app, json);
}

int result(const FoundJob& found, const JobsArgs& a) {
  const JobEntry& e = found.entry;
  if (!ended(e.state)) {
    return report_failure(kExitFailed, "job " + format_job_id(e.job) + " (" + e.app + ") is " +
                                           to_string(e.state) + ": step " +
                                           std::to_string(e.step) + " of " +
                                           std::to_string(e.steps) + "; no result yet" +
                                           (e.reason.empty() ? "" : " (" + e.reason + ")"));
  }
  const int status = attach(found, a.json);
  if (!a.forget || status == kExitConnection) return status;
  if (Status s = forget_job(found, Clock::now() + kAskTimeout); !s) {
    return report_failure(kExitFailed, "job " + format_job_id(e.job) + ": not forgotten: " +
                                           s.message());
  }
  std::fprintf(stderr, "driftctl: job %s forgotten\n", format_job_id(e.job).c_str());
  return status;
}

}  // namespace

int cancel_and_say(const ConnectOptions& connect, std::uint64_t job) {
  auto found = find_job(connect, job, kAskTimeout);
  if (!found) return report_failure(kExitFailed, found.error());
  auto cancelled = cancel_job(*found, Clock::now() + kAskTimeout);
  if (!cancelled) return report_failure(kExitFailed, cancelled.error());
  std::cout << "job " << format_job_id(job) << ": " << cancelled->reason << "\n";
  return kExitOk;
}

int jobs_command(const std::string& command, const std::vector<std::string>& args,
                 ConnectionSettings settings) {
  JobsArgs a;
  po::options_description options(command + " options");
  auto add = options.add_options();
  if (command != "jobs") add("job", po::value(&a.job)->value_name("JOB"), "the job's id");
  if (command == "jobs") add("all", po::bool_switch(&a.all), "everyone's jobs, not only yours");
  if (command != "cancel") add("json", po::bool_switch(&a.json), "print JSON");
  if (command == "result") {
    add("forget", po::bool_switch(&a.forget),
        "once printed, drop the job's kept end from its root and deputy");
  }
  add("help,h", "show this help");
  options.add(settings.options());
  po::positional_options_description positional;
  if (command != "jobs") positional.add("job", 1);
  po::variables_map vm;
  if (Status s = parse_args(args, options, positional, vm); !s) return usage_error(command, s.message());
  if (vm.count("help")) return std::cout << usage_of(command) << options, kExitOk;
  if (auto ep = settings.endpoint(); !ep) return usage_error(command, ep.error());
  auto connect = settings.connect_options();
  if (!connect) return report_failure(settings.connect_failure_exit(), connect.error());
  if (command == "jobs") return list_jobs(*connect, a);
  if (a.job.empty()) return usage_error(command, "which job? (driftctl jobs lists them)");
  auto id = parse_job_id(a.job);
  if (!id) return usage_error(command, id.error());
  if (command == "cancel") return cancel_and_say(*connect, *id);
  auto found = find_job(*connect, *id, kAskTimeout);
  if (!found) return report_failure(kExitFailed, found.error());
  if (command == "attach") return attach(*found, a.json);
  return result(*found, a);
}

}  // namespace drift::ctl
