// `driftctl fault run|check` (fault_command.h): options, then run_fault_scenario and the report.
#include "ctl/fault_command.h"

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/fault_analysis.h"
#include "ctl/fault_cpu_quota.h"
#include "ctl/fault_report.h"
#include "ctl/fault_run.h"
#include "ctl/fault_scenario_parser.h"
#include "ctl/unsigned_option.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

struct FaultArgs {
  std::vector<std::string> scenarios;
  bool json = false;
  int base_port = 7700;
  FaultRunOptions run;
};

po::options_description fault_options(FaultArgs& a) {
  po::options_description d("fault run options");
  auto add = d.add_options();
  add("json", po::bool_switch(&a.json), "print the report as one JSON object");
  add("base-port", po::value<int>(&a.base_port)->value_name("P"),
      "daemon K listens on port P+K-1 (default 7700)");
  add("dir", po::value<std::string>(&a.run.dir)->value_name("DIR"),
      "configs and logs of the run's daemons (default: a fresh /tmp/drift-fault-* directory, "
      "removed after a run that passed)");
  add("keep-dir", po::bool_switch(&a.run.keep_dir), "keep that directory even when all is well");
  add("driftd", po::value<std::string>(&a.run.driftd)->value_name("PATH"),
      "the driftd to run (default: beside driftctl, else on PATH)");
  add("seed", unsigned_value(&a.run.seed)->value_name("N"),
      "seed for random/worker picks and 'every' gaps (default: from the clock)");
  add("verbose,v", po::bool_switch(&a.run.verbose), "a line on stderr per fault as it happens");
  add("help,h", "show this help");
  return d;
}

int print_fault_help() {
  FaultArgs a;
  std::cout << "Usage: driftctl fault run SCENARIO [--json] [options]\n"
               "       driftctl fault check SCENARIO...\n\n"
               "run starts a local cluster of its own as the scenario file describes, runs its\n"
               "job(s), injects its failures (SIGKILL, SIGSTOP/SIGCONT, restarts, partitions in\n"
               "network namespaces, frame drop/delay/duplication through the daemons' test hooks)\n"
               "and prints a report: results against the serial reference, detection and\n"
               "recovery times, steps recomputed, false suspicions and deaths, the checks.\n"
               "Partitions need root, ip and nft. check only parses the files.\n"
               "Scenario format: conf/faults/README.md. Exit: 0 every check passed, 1 a check\n"
               "failed or the run could not start, 2 bad options or scenario.\n\n"
            << fault_options(a);
  return kExitOk;
}

int check(const std::vector<std::string>& files) {
  if (files.empty()) return usage_error("fault check", "missing the scenario file(s)");
  int code = kExitOk;
  for (const auto& file : files) {
    auto s = load_fault_scenario(file);
    if (!s) {
      std::cerr << "driftctl: " << s.error() << "\n";
      code = kExitUsage;
      continue;
    }
    std::cout << file << ": " << s->nodes << " nodes, " << s->jobs.size() << " job(s), "
              << s->faults.size() << " fault line(s)" << (s->netns ? ", network namespaces" : "")
              << "\n";
  }
  return code;
}

int run(const std::vector<std::string>& args) {
  FaultArgs a;
  po::positional_options_description positional;
  positional.add("scenario", -1);
  auto options = fault_options(a);
  options.add_options()("scenario", po::value<std::vector<std::string>>(&a.scenarios));
  po::variables_map vm;
  if (Status s = parse_args(args, options, positional, vm); !s) return usage_error("fault run", s.message());
  if (vm.count("help")) return print_fault_help();
  if (a.scenarios.size() != 1) return usage_error("fault run", "expected one scenario file");
  if (a.base_port < 1 || a.base_port > 65000) {
    return usage_error("fault run", "--base-port " + std::to_string(a.base_port) + ": must be 1..65000");
  }
  a.run.base_port = static_cast<std::uint16_t>(a.base_port);
  auto scenario = load_fault_scenario(a.scenarios.front());
  if (!scenario) return report_failure(kExitUsage, scenario.error());
  if (!scenario->cpu_cores.empty()) {
    if (Status st = CpuQuotas::available(); !st) {
      std::cout << a.scenarios.front() << ": SKIPPED, it sets cpu quotas and " << st.message()
                << "\n";
      return kExitSkipped;
    }
  }
  auto record = run_fault_scenario(*scenario, a.run);
  if (!record) return report_failure(kExitFailed, a.scenarios.front() + ": " + record.error());
  const FaultAnalysis analysis = analyse_fault_run(*record);
  if (!record->dir_kept && analysis.passed()) {
    std::error_code ec;
    std::filesystem::remove_all(record->dir, ec);
  } else {
    record->dir_kept = true;  // the logs of a run that failed are worth a look
  }
  if (a.json) {
    std::cout << fault_report_json(*record, analysis).dump() << "\n";
  } else {
    std::cout << fault_report_text(*record, analysis);
  }
  return analysis.passed() ? kExitOk : kExitFailed;
}

}  // namespace

int fault_command(const std::vector<std::string>& args) {
  if (args.empty()) return usage_error("fault", "expected 'run SCENARIO' or 'check SCENARIO...'");
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args.front() == "run") return run(rest);
  if (args.front() == "check") return check(rest);
  if (args.front() == "--help" || args.front() == "-h") return print_fault_help();
  return usage_error("fault", "unknown subcommand '" + args.front() + "' (expected run or check)");
}

}  // namespace drift::ctl
