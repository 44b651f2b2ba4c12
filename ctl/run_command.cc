// `driftctl run` (run_command.h): options, local validation, then cluster or serial run.
#include "ctl/run_command.h"

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <tuple>

#include "ctl/app_executable.h"
#include "ctl/app_options.h"
#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/interrupt_watch.h"
#include "ctl/job_client.h"
#include "ctl/job_control.h"
#include "ctl/job_executables.h"
#include "ctl/job_output.h"
#include "ctl/job_report.h"
#include "ctl/job_trace.h"
#include "ctl/jobs_command.h"
#include "ctl/progress_bar.h"
#include "ctl/status_query.h"
#include "ctl/task_id_text.h"
#include "ctl/tcp_stream.h"
#include "ctl/unsigned_option.h"
#include "protocol/byte_size.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

// Options of `run` itself; an application option of the same name is shadowed.
const std::vector<std::string> kRunOptionNames = {
    "tasks",     "steps",          "serial",         "json", "timeout", "chaos-migrations",
    "chaos-grain", "binary", "name", "memory", "trace",
    "placement", "checkpoint-steps", "checkpoint-ms", "help"};

// Pieces of an executable sent to the daemon (its frames allow far more).
constexpr std::uint32_t kUploadPiece = 1u << 20;

struct RunArgs {
  std::uint32_t tasks = 0;
  std::uint64_t steps = 0;
  double timeout_s = 0;
  std::uint32_t chaos_migrations = 0;
  std::uint32_t chaos_grain = 0;
  std::string placement;
  std::string checkpoint_steps, checkpoint_ms;
  std::string memory;  // per task, as the user wrote it ("2G")
  std::vector<std::string> binaries;
  std::string name;
  std::string trace;  // --trace FILE: the job's timeline as JSON lines
  bool serial = false;
  bool json = false;
  bool submit = false;  // `driftctl submit`: start the job and return with its id
};

po::options_description run_options(RunArgs& a) {
  po::options_description d("Run options");
  auto add = d.add_options();
  add("tasks", unsigned_value(&a.tasks)->value_name("N"),
      "number of tasks to split the job into (default: the application's)");
  add("steps", unsigned_value(&a.steps)->value_name("S"),
      "number of steps (default: the application's)");
  add("serial", po::bool_switch(&a.serial),
      "run the serial reference here instead of on the cluster");
  add("json", po::bool_switch(&a.json), "print one JSON object instead of the summary");
  add("trace", po::value<std::string>(&a.trace)->value_name("FILE"),
      "write the job's timeline to FILE, one JSON object a line: every step, rollback, root "
      "change and the end with each step's time (scripts/plot-trace.py draws it)");
  add("name", po::value<std::string>(&a.name)->value_name("NAME"),
      "a name for the job in `driftctl jobs` (default: the application's)");
  add("timeout", po::value<double>(&a.timeout_s)->value_name("SECONDS"),
      "give up waiting for the job after this long (default: no limit)");
  add("binary", po::value<std::vector<std::string>>(&a.binaries)->value_name("ARCH=FILE"),
      "with APP a path: the same application built for another architecture (s390x, i386, "
      "...), for the nodes of that architecture; may repeat. Nodes of an architecture with no "
      "executable take no task of the job");
  add("chaos-migrations", unsigned_value(&a.chaos_migrations)->value_name("N"),
      "testing aid: after every step, move N random tasks to random nodes (default 0); the "
      "checksum must not change");
  add("chaos-grain", unsigned_value(&a.chaos_grain)->value_name("N"),
      "testing aid: after every step, ask for N random splits of tasks into spare ones (an "
      "application option such as heat2d's --spare N makes some) or merges undoing them "
      "(default 0); the checksum must not change");
  add("placement", po::value<std::string>(&a.placement)->value_name("HOW"),
      "where the tasks start: capacity (in proportion to each node's advertised capacity, the "
      "default) or even (the same number on every node, as a uniform partition)");
  add("memory", po::value<std::string>(&a.memory)->value_name("SIZE"),
      "the most memory one task needs, e.g. 512M or 2G (default: the application's estimate, "
      "if it gives one); the job waits in the queue until the available nodes have that much "
      "free for each of its tasks");
  add("checkpoint-steps", po::value<std::string>(&a.checkpoint_steps)->value_name("N"),
      "checkpoint every N steps, 0 = not by steps (default: the root daemon's "
      "checkpoint.every_steps)");
  add("checkpoint-ms", po::value<std::string>(&a.checkpoint_ms)->value_name("MS"),
      "checkpoint at the first step boundary MS milliseconds after the last one, 0 = not by "
      "time (default: the root daemon's checkpoint.interval_ms); a node failure rolls the job "
      "back to its last checkpoint, or to its start if it has none");
  add("help,h", "show this help");
  return d;
}

std::string known_apps() {
  std::string names;
  for (const auto& [name, path] : installed_apps()) names += (names.empty() ? "" : ", ") + name;
  return names.empty() ? "none installed" : names;
}

// The application's name and option help, as its executable says.
Result<AppAnswer> app_info(const std::string& path) {
  AppQuery query;
  query.kind = AppQueryKind::kInfo;
  return ask_executable(path, query, std::chrono::seconds(30));
}

int print_general_help() {
  RunArgs ignored;
  std::cout << "Usage: driftctl [connection options] run APP [options]\n\n"
               "Runs application APP on the cluster (or its serial reference with --serial).\n"
               "APP is an installed application's name, or the path of an executable built\n"
               "with the drift SDK (e.g. ./build/wave), which is shipped with the job.\n"
               "Installed applications: "
            << known_apps() << "\n\n"
            << run_options(ignored);
  for (const auto& [name, path] : installed_apps()) {
    auto info = app_info(path);
    if (!info) continue;
    std::cout << "\n" << describe_app_options(name, app_options(info->options, kRunOptionNames));
  }
  std::cout << "\n" << ConnectionSettings().options();
  return kExitOk;
}

void print_app_help(const std::string& app, const po::options_description& options) {
  std::cout << "Usage: driftctl [connection options] run " << app << " [options]\n\n" << options;
}

int run_serial(const std::string& path, const JobSpec& spec, bool json) {
  AppQuery query;
  query.kind = AppQueryKind::kSerial;
  query.spec = spec;
  const auto start = std::chrono::steady_clock::now();
  auto outcome = ask_executable(path, query);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!outcome) return report_failure(kExitFailed, spec.app + " (serial): " + outcome.error());
  if (!outcome->ok) return report_failure(kExitFailed, spec.app + " (serial): " + outcome->error);
  // The tasks it was asked with (its details may depend on them: sums taken per task).
  return print_report({spec.app, outcome->checksum, spec.steps, spec.tasks, wall, "serial", 0,
                       outcome->details, {}, 0},
                      json);
}

int run_on_cluster(JobSpec spec, const RunArgs& a, const ConnectOptions& connect,
                   const std::vector<JobExecutable>& executables) {
  auto connection = ClientConnection::open(connect);
  if (!connection) return report_failure(kExitConnection, connection.error());
  if (!executables.empty()) {
    if (Status st = upload_executables(**connection, executables, kUploadPiece,
                                       std::chrono::seconds(120));
        !st) {
      return report_failure(kExitFailed, "job (" + spec.app + "): " + st.message());
    }
    add_to_spec(spec, executables);
  }
  if (a.submit) {
    std::vector<JobNotice> notices;
    auto accepted =
        submit_job(**connection, spec, Clock::now() + std::chrono::seconds(60), &notices);
    if (!accepted) return report_failure(kExitFailed, accepted.error());
    std::string queued;  // why it waits, if it does
    for (const JobNotice& n : notices) {
      if (n.kind == JobNoticeKind::kQueued) queued = n.text;
    }
    if (a.json) {
      nlohmann::json out{{"job", format_job_id(accepted->job)},
                         {"root", accepted->root},
                         {"state", queued.empty() ? "running" : "queued"}};
      if (!queued.empty()) out["reason"] = queued;
      std::cout << out.dump() << "\n";
    } else {
      std::cout << "job " << format_job_id(accepted->job) << " submitted (root node "
                << accepted->root << (queued.empty() ? "" : "; " + queued)
                << "); follow it with `driftctl attach " << format_job_id(accepted->job)
                << "`\n";
    }
    return kExitOk;
  }
  std::unique_ptr<JobTrace> trace;
  if (!a.trace.empty()) {
    auto opened = JobTrace::open(a.trace);
    if (!opened) return usage_error("run", opened.error());
    trace = std::move(opened).value();
    trace->submitted(spec);
  }
  // The members, so that the job can be followed to a new root if this one dies.
  Reattach reattach{connect, {}};
  if (auto members = query_status(**connection, connect.handshake_timeout)) {
    for (const NodeStatus& n : members->nodes) reattach.members.push_back(n.member);
  }
  ProgressBar bar(stderr, ::isatty(STDERR_FILENO) == 1);
  // Ctrl-C only detaches; a second one may cancel (ctl/interrupt_watch.h).
  InterruptWatch interrupts([&](std::uint64_t job) { return cancel_and_say(connect, job); });
  auto end = run_job(
      **connection, spec,
      [&](const JobProgress& p) {
        interrupts.set_job(p.job);
        if (trace) trace->progress(p);
        if (!interrupts.interrupted()) bar.update(p.step, p.steps, p.values);
      },
      deadline_after(a.timeout_s),
      [&](const JobNotice& n) {
        interrupts.set_job(n.job);
        if (trace) trace->notice(n);
        if (interrupts.interrupted()) return;
        bar.finish();
        print_notice(n);
      },
      &reattach);
  bar.finish();
  const auto hold = interrupts.hold_output();
  if (!end) return report_failure(kExitConnection, end.error());
  if (trace) trace->end(*end);
  return print_job_end(*end, spec.app, a.json);
}

bool asks_for_help(const std::vector<std::string>& args) {
  return std::find(args.begin(), args.end(), "--help") != args.end() ||
         std::find(args.begin(), args.end(), "-h") != args.end();
}

// Everything after "run APP": parse, check with the application's own rules, run.
int run_app(const std::string& app_arg, const AppExecutable& exe, const AppAnswer& info,
            const std::vector<std::string>& args, ConnectionSettings& settings, bool submit) {
  RunArgs a;
  a.submit = submit;
  const std::string name = exe.own ? info.app : app_arg;
  const auto app_opts = app_options(info.options, kRunOptionNames);
  po::options_description options;
  options.add(run_options(a)).add(describe_app_options(name, app_opts));
  options.add(settings.options());
  po::variables_map vm;
  if (Status s = parse_args(args, options, {}, vm); !s) return usage_error("run", s.message());
  if (vm.count("help")) return print_app_help(app_arg, options), kExitOk;
  if (!a.binaries.empty() && !exe.own) {
    return usage_error("run", "--binary goes with an executable of your own (run PATH), not an "
                              "installed application ('" + app_arg + "')");
  }

  // 0 in a JobSpec means "the application's default": an explicit 0 is no such request.
  const std::string default_hint = " (leave the option out for the application's default)";
  if (vm.count("tasks") && a.tasks == 0) {
    return usage_error("run", "--tasks 0: a job needs at least one task" + default_hint);
  }
  if (vm.count("steps") && a.steps == 0) {
    return usage_error("run", "--steps 0: a job needs at least one step" + default_hint);
  }
  if (vm.count("timeout") && !(a.timeout_s > 0)) {
    return usage_error("run", "--timeout " + plain_number(a.timeout_s) +
                                  ": must be more than 0 seconds (leave it out for no limit)");
  }
  JobSpec spec = job_spec(name, a.tasks, a.steps, app_params(app_opts, vm));
  if (a.serial && spec.tasks == 0) spec.tasks = 1;
  if (Status s = add_runtime_options(spec, {a.chaos_migrations, a.chaos_grain}, a.serial); !s) {
    return usage_error("run", s.message());
  }
  if (!a.placement.empty()) {
    if (a.placement != "capacity" && a.placement != "even") {
      return usage_error("run", "--placement " + a.placement + ": expected capacity or even");
    }
    spec.runtime["placement"] = a.placement;
  }
  if (!a.name.empty()) {
    if (a.name.size() > 64) return usage_error("run", "--name: at most 64 characters");
    spec.runtime["name"] = a.name;
  }
  // Checked here too, as the root checks them: a bad value is a usage error before anything
  // is sent, not a failed job.
  for (auto [value, option, meaning] :
       {std::tuple{&a.checkpoint_steps, "--checkpoint-steps",
                   "a number of steps between checkpoints (0 = not by steps)"},
        std::tuple{&a.checkpoint_ms, "--checkpoint-ms",
                   "milliseconds between checkpoints (0 = not by time)"}}) {
    if (!value->empty() && (value->size() > 19 ||
                            value->find_first_not_of("0123456789") != std::string::npos)) {
      return usage_error("run", std::string(option) + " '" + *value + "': expected " + meaning);
    }
  }
  if (!a.memory.empty()) {
    const auto bytes = parse_byte_size(a.memory);
    if (!bytes || *bytes == 0) {
      return usage_error("run", "--memory '" + a.memory + "': expected the bytes one task "
                                "needs, e.g. 512M or 2G (K, M, G, T: powers of 1024)");
    }
  }
  if (!a.checkpoint_steps.empty()) spec.runtime["checkpoint_steps"] = a.checkpoint_steps;
  if (!a.memory.empty()) spec.runtime["memory"] = a.memory;
  if (!a.checkpoint_ms.empty()) spec.runtime["checkpoint_ms"] = a.checkpoint_ms;
  AppQuery check;
  check.kind = AppQueryKind::kValidate;
  check.spec = spec;
  auto checked = ask_executable(exe.path, check, std::chrono::seconds(60));
  if (!checked) return report_failure(kExitFailed, checked.error());
  if (!checked->ok) return usage_error("run", name + ": " + checked->error);
  const auto runtime = spec.runtime;
  spec = checked->spec;
  spec.app = name;
  spec.runtime = runtime;
  if (a.serial) return run_serial(exe.path, spec, a.json);
  if (spec.tasks == 0) return usage_error("run", "--tasks N is required");
  std::vector<JobExecutable> executables;
  if (exe.own) {
    auto found = job_executables(exe.path, a.binaries);
    if (!found) return usage_error("run", found.error());
    executables = std::move(*found);
  }
  if (auto ep = settings.endpoint(); !ep) return usage_error("run", ep.error());
  auto connect = settings.connect_options();
  if (!connect) return report_failure(settings.connect_failure_exit(), connect.error());
  return run_on_cluster(spec, a, *connect, executables);
}

}  // namespace

Status add_runtime_options(JobSpec& spec, const ChaosOptions& chaos, bool serial) {
  if (serial && chaos.migrations > 0) {
    return Status::error("--chaos-migrations " + std::to_string(chaos.migrations) +
                         " moves tasks between nodes: not with --serial");
  }
  if (serial && chaos.grain > 0) {
    return Status::error("--chaos-grain " + std::to_string(chaos.grain) +
                         " splits and merges a cluster job's tasks: not with --serial");
  }
  if (chaos.migrations > 0) spec.runtime["chaos_migrations"] = std::to_string(chaos.migrations);
  if (chaos.grain > 0) spec.runtime["chaos_grain"] = std::to_string(chaos.grain);
  return Status::ok();
}

int run_command(const std::vector<std::string>& args, ConnectionSettings settings, bool submit) {
  if (args.empty() || args.front().starts_with("-")) {
    if (asks_for_help(args)) return print_general_help();
    return usage_error("run", "missing the application to run: an installed one (" + known_apps() +
                                  ") or the path of your own executable");
  }
  auto exe = find_app_executable(args.front());
  if (!exe) return usage_error("run", exe.error());
  auto info = app_info(exe->path);
  if (!info) return report_failure(kExitFailed, info.error());
  return run_app(args.front(), *exe, *info, std::vector<std::string>(args.begin() + 1, args.end()),
                 settings, submit);
}

}  // namespace drift::ctl
