// Scenario files: sections, keys and the checks between them (fault_scenario_parser.h).
#include "ctl/fault_scenario_parser.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "ctl/app_executable.h"
#include "ctl/app_options.h"
#include "ctl/fault_line_parser.h"
#include "ctl/node_setting.h"

namespace fs = std::filesystem;

namespace drift::ctl {

namespace {

constexpr int kMaxScenarioNodes = 64;

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

Result<long long> parse_count(const std::string& key, const std::string& value, long long lo,
                              long long hi) {
  try {
    std::size_t used = 0;
    const long long v = std::stoll(value, &used);
    if (used == value.size() && v >= lo && v <= hi) return v;
  } catch (const std::exception&) {
  }
  return Status::error(key + " = '" + value + "': expected a whole number " + std::to_string(lo) +
                       ".." + std::to_string(hi));
}

// "1%", "0.5 %": a share from 0 to 1.
Result<double> parse_percent(const std::string& key, const std::string& value) {
  try {
    std::size_t used = 0;
    const double v = std::stod(value, &used);
    const std::string rest = trim(value.substr(used));
    if (rest == "%" && v >= 0 && v <= 100) return v / 100;
  } catch (const std::exception&) {
  }
  return Status::error(key + " = '" + value + "': expected a percentage 0%..100%");
}

Result<bool> parse_yes_no(const std::string& key, const std::string& value) {
  if (value == "true" || value == "yes") return true;
  if (value == "false" || value == "no") return false;
  return Status::error(key + " = '" + value + "': expected yes or no");
}

class Reader {
 public:
  Reader(std::string file) : file_(std::move(file)) {
    scenario_.file = file_;
    dir_ = fs::path(file_).parent_path();
  }

  Status line(const std::string& raw, int number) {
    at_ = file_ + ":" + std::to_string(number);
    const std::string s = trim(raw.substr(0, raw.find('#')));
    if (s.empty()) {
      if (scenario_.title.empty() && trim(raw).starts_with("#")) {
        scenario_.title = trim(trim(raw).substr(1));
      }
      return Status::ok();
    }
    if (s.front() == '[' && s.back() == ']') return open_section(trim(s.substr(1, s.size() - 2)));
    if (section_ == "faults") return fault(s);
    const auto eq = s.find('=');
    if (eq == std::string::npos || section_.empty()) {
      return error("expected 'key = value' in a section, got '" + s + "'");
    }
    return key(trim(s.substr(0, eq)), trim(s.substr(eq + 1)));
  }

  Result<FaultScenario> finish() {
    at_ = file_;
    if (Status s = close_job(); !s) return s;
    if (scenario_.nodes == 0) return error("[cluster] nodes is required");
    if (scenario_.jobs.empty()) return error("a [job] section is required");
    std::uint64_t most_steps = 0;
    for (const JobPlan& j : scenario_.jobs) most_steps = std::max(most_steps, j.steps);
    for (const FaultEntry& f : scenario_.faults) {
      if (f.when.kind == FaultTrigger::Kind::kStep && f.when.step > most_steps) {
        return Status::error(f.origin + ": '" + f.text + "': no job has that many steps (the most " +
                             std::to_string(most_steps) + ")");
      }
    }
    const bool partitions =
        std::any_of(scenario_.faults.begin(), scenario_.faults.end(),
                    [](const FaultEntry& e) { return e.action.kind == FaultKind::kPartition; });
    if (partitions && network_ == "loopback") {
      return error("network = loopback: partition needs network = netns");
    }
    scenario_.netns = network_ == "netns" || (network_.empty() && partitions);
    // Unset: conf/local.conf for the scenarios in conf/faults; a scenario elsewhere without a
    // local.conf beside its folder gets driftd's defaults (what `local up` gives without one).
    if (scenario_.base_config.empty() && !base_config_set_) {
      const fs::path beside = fs::absolute(dir_ / "../local.conf").lexically_normal();
      std::error_code ec;
      if (fs::is_regular_file(beside, ec)) scenario_.base_config = beside.string();
    }
    return scenario_;
  }

 private:
  Status error(const std::string& what) const { return Status::error(at_ + ": " + what); }
  Status wrap(const Status& s) const { return s ? s : error(s.message()); }

  Status open_section(const std::string& name) {
    if (Status s = close_job(); !s) return s;
    if (name != "cluster" && name != "job" && name != "expect" && name != "faults") {
      return error("unknown section [" + name + "] (expected cluster, job, expect or faults)");
    }
    if (name == "faults" && scenario_.nodes == 0) {
      return error("[faults] must come after [cluster] nodes = N (node numbers are checked)");
    }
    section_ = name;
    if (name == "job") {
      job_ = JobPlan{};
      job_.origin = at_;
      in_job_ = true;
    }
    return Status::ok();
  }

  Status close_job() {
    if (!in_job_) return Status::ok();
    in_job_ = false;
    auto exe = find_app_executable(job_.app);
    if (!exe) return Status::error(job_.origin + ": [job] app = '" + job_.app + "': " + exe.error());
    AppQuery query;
    query.kind = AppQueryKind::kInfo;
    auto info = ask_executable(exe->path, query);
    if (!info) return Status::error(job_.origin + ": [job] app = '" + job_.app + "': " + info.error());
    job_.app_name = info->app;
    if (exe->own) job_.executable = exe->path;
    const auto options = app_options(info->options, {});
    for (const auto& [key, value] : job_.params) {
      const bool known = std::any_of(options.begin(), options.end(),
                                     [&](const AppOption& o) { return o.key == key; });
      if (!known) {
        return Status::error(param_origin_[key] + ": " + key + " = '" + value + "': " + job_.app +
                             " has no option --" + key);
      }
    }
    auto checked = ask_app_about(job_.app, JobSpec{job_.app, job_.tasks, job_.steps, job_.params, {}},
                                 AppQueryKind::kValidate);
    if (!checked) return Status::error(job_.origin + ": [job] " + checked.error());
    const JobSpec& spec = checked->spec;
    if (job_.tasks == 0) return Status::error(job_.origin + ": [job] tasks = N is required");
    job_.steps = spec.steps;
    job_.params = spec.params;  // with the application's defaults filled in
    if (job_.submit_to > scenario_.nodes) {
      return Status::error(job_.origin + ": [job] submit = " + std::to_string(job_.submit_to) +
                           ": the cluster has " + std::to_string(scenario_.nodes) + " nodes");
    }
    scenario_.jobs.push_back(job_);
    return Status::ok();
  }

  Status key(const std::string& k, const std::string& v) {
    if (section_ == "cluster") return wrap(cluster_key(k, v));
    if (section_ == "job") return wrap(job_key(k, v));
    return wrap(expect_key(k, v));
  }

  Status cluster_key(const std::string& k, const std::string& v) {
    if (k == "nodes") {
      auto n = parse_count(k, v, 1, kMaxScenarioNodes);
      if (n) scenario_.nodes = static_cast<int>(*n);
      return n.status();
    }
    if (k == "network") {
      if (v != "loopback" && v != "netns") {
        return Status::error("network = '" + v + "': expected loopback or netns");
      }
      network_ = v;
      return Status::ok();
    }
    if (k == "base_config") {
      base_config_set_ = true;
      scenario_.base_config = (dir_ / v).lexically_normal().string();
      if (!fs::exists(scenario_.base_config)) {
        return Status::error("base_config = '" + v + "': no such file " + scenario_.base_config);
      }
      scenario_.base_config = fs::absolute(scenario_.base_config).string();
      return Status::ok();
    }
    if (k == "set") return setting(v);
    if (k == "cpu_hogs") {
      auto n = parse_count(k, v, 0, 256);
      if (n) scenario_.cpu_hogs = static_cast<int>(*n);
      return n.status();
    }
    if (k == "cpu_hogs_nice") {
      auto n = parse_count(k, v, 0, 19);
      if (n) scenario_.cpu_hogs_nice = static_cast<int>(*n);
      return n.status();
    }
    if (k == "duration") {
      auto d = parse_duration(v);
      if (d) scenario_.duration_s = *d;
      return d.status();
    }
    if (k == "cpu") return cpu_quota(v);
    if (k == "cpu_period") {
      auto d = parse_duration(v);
      if (d && (*d < 0.001 || *d > 1)) {
        return Status::error("cpu_period = '" + v + "': must be from 1ms to 1s");
      }
      if (d) scenario_.cpu_period_us = std::lround(*d * 1e6);
      return d.status();
    }
    return Status::error("unknown key '" + k + "' in [cluster] (nodes, network, base_config, set, "
                         "cpu_hogs, cpu_hogs_nice, duration, cpu, cpu_period)");
  }

  // "CORES" for every daemon, "K:CORES" for daemon K (a later line wins for its daemons).
  Status cpu_quota(const std::string& v) {
    if (scenario_.nodes == 0) return Status::error("cpu = '" + v + "': set nodes first");
    const auto colon = v.find(':');
    int first = 1, last = scenario_.nodes;
    if (colon != std::string::npos) {
      auto n = parse_count("cpu", v.substr(0, colon), 1, scenario_.nodes);
      if (!n) return n.status();
      first = last = static_cast<int>(*n);
    }
    const std::string amount = colon == std::string::npos ? v : v.substr(colon + 1);
    char* end = nullptr;
    const double cores = std::strtod(amount.c_str(), &end);
    if (amount.empty() || end != amount.c_str() + amount.size() || !(cores >= 0.01 && cores <= 1024)) {
      return Status::error("cpu = '" + v + "': expected CORES or K:CORES, cores from 0.01 to 1024");
    }
    for (int k = first; k <= last; ++k) scenario_.cpu_cores[k] = cores;
    return Status::ok();
  }

  // "key=value" for every daemon, "K:key=value" for daemon K.
  Status setting(const std::string& v) {
    const auto colon = v.find(':');
    const auto eq = v.find('=');
    if (colon != std::string::npos && colon < eq) {
      if (scenario_.nodes == 0) return Status::error("set = '" + v + "': set nodes first");
      auto s = parse_node_setting(v);
      if (!s) return Status::error("set = '" + v + "': " + s.error());
      if (s->node > scenario_.nodes) {
        return Status::error("set = '" + v + "': the cluster has " +
                             std::to_string(scenario_.nodes) + " nodes");
      }
      scenario_.node_args[s->node].push_back(s->argument());
      return Status::ok();
    }
    if (eq == std::string::npos || eq == 0) {
      return Status::error("set = '" + v + "': expected key=value or K:key=value");
    }
    scenario_.all_args.push_back("--" + v);
    return Status::ok();
  }

  Status job_key(const std::string& k, const std::string& v) {
    if (k == "app") return job_.app = v, Status::ok();
    if (k == "tasks") {
      auto n = parse_count(k, v, 1, 1 << 20);
      if (n) job_.tasks = static_cast<std::uint32_t>(*n);
      return n.status();
    }
    if (k == "steps") {
      auto n = parse_count(k, v, 1, 1LL << 40);
      if (n) job_.steps = static_cast<std::uint64_t>(*n);
      return n.status();
    }
    if (k == "submit") {
      auto n = parse_count(k, v, 1, kMaxScenarioNodes);
      if (n) job_.submit_to = static_cast<int>(*n);
      return n.status();
    }
    if (k == "timeout") {
      auto d = parse_duration(v);
      if (d && *d <= 0) return Status::error("timeout = '" + v + "': must be more than 0");
      if (d) job_.timeout_s = *d;
      return d.status();
    }
    job_.params[k] = v;  // the application's option; checked when the section closes
    param_origin_[k] = at_;
    return Status::ok();
  }

  Status expect_key(const std::string& k, const std::string& v) {
    FaultExpectations& e = scenario_.expect;
    if (k == "correct") {
      auto b = parse_yes_no(k, v);
      if (b) e.correct = *b;
      return b.status();
    }
    if (k == "faulted_declared_dead") {
      auto b = parse_yes_no(k, v);
      if (b) e.faulted_declared_dead = *b;
      return b.status();
    }
    if (k == "max_false_suspicions" || k == "max_false_deaths") {
      auto n = parse_count(k, v, 0, 1 << 20);
      if (!n) return n.status();
      (k == "max_false_deaths" ? e.max_false_deaths : e.max_false_suspicions.emplace()) =
          static_cast<int>(*n);
      return Status::ok();
    }
    if (k == "max_steps_recomputed") {
      auto n = parse_count(k, v, 0, 1LL << 40);
      if (n) e.max_steps_recomputed = static_cast<std::uint64_t>(*n);
      return n.status();
    }
    if (k == "max_recoveries") {
      auto n = parse_count(k, v, 0, 1 << 20);
      if (n) e.max_recoveries = static_cast<std::uint32_t>(*n);
      return n.status();
    }
    if (k == "max_detection") {
      auto d = parse_duration(v);
      if (!d) return Status::error(k + " = '" + v + "': " + d.error());
      e.max_detection_s = *d;
      return Status::ok();
    }
    if (k == "max_stall") {
      auto d = parse_duration(v);
      if (!d) return Status::error(k + " = '" + v + "': " + d.error());
      e.max_stall_s = *d;
      return Status::ok();
    }
    if (k == "max_late_heartbeats") {
      auto p = parse_percent(k, v);
      if (p) e.max_late_heartbeats = *p;
      return p.status();
    }
    return Status::error("unknown key '" + k +
                         "' in [expect] (correct, max_false_suspicions, max_false_deaths, "
                         "faulted_declared_dead, max_detection, max_steps_recomputed, "
                         "max_recoveries, max_stall, max_late_heartbeats)");
  }

  Status fault(const std::string& s) {
    auto e = parse_fault_line(s, scenario_.nodes);
    if (!e) return error(e.error());
    e->origin = at_;
    scenario_.faults.push_back(std::move(*e));
    return Status::ok();
  }

  std::string file_;
  fs::path dir_;
  std::string at_;
  std::string section_;
  std::string network_;
  FaultScenario scenario_;
  JobPlan job_;
  bool in_job_ = false;
  bool base_config_set_ = false;
  std::map<std::string, std::string> param_origin_;
};

}  // namespace

Result<FaultScenario> parse_fault_scenario(const std::string& text, const std::string& file) {
  Reader reader(file);
  std::istringstream in(text);
  int number = 0;
  for (std::string raw; std::getline(in, raw);) {
    if (Status s = reader.line(raw, ++number); !s) return s;
  }
  return reader.finish();
}

Result<FaultScenario> load_fault_scenario(const std::string& file) {
  std::ifstream in(file);
  if (!in || fs::is_directory(file)) {
    return Status::error("cannot read scenario '" + file + "'");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_fault_scenario(text.str(), file);
}

}  // namespace drift::ctl
