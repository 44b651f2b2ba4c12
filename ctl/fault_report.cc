// Text and JSON renderings of a fault run (fault_report.h).
#include "ctl/fault_report.h"

#include <cstdio>
#include <sstream>

#include "ctl/task_id_text.h"
#include "ctl/text_table.h"

namespace drift::ctl {

namespace {

std::string secs(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

std::string opt_secs(const std::optional<double>& s) { return s ? secs(*s) : "-"; }

std::string node_list(const std::vector<int>& nodes) {
  std::string out;
  for (int n : nodes) {
    if (!out.empty()) out += ',';
    out += std::to_string(n);
  }
  return out.empty() ? "all" : out;
}

std::string jobs_table(const FaultRunRecord& r) {
  TextTable t({"JOB", "APP", "ID", "STEPS", "WALL", "RECOVERIES", "RECOMPUTED", "RESULT"});
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    const JobRecord& j = r.jobs[i];
    t.add_row({std::to_string(i), j.plan.app, j.id ? format_job_id(j.id) : "-",
               std::to_string(j.steps_done) + "/" + std::to_string(j.plan.steps), secs(j.wall_s),
               std::to_string(j.recoveries), std::to_string(j.steps_recomputed),
               job_outcome_text(j)});
  }
  return t.render();
}

std::string faults_table(const FaultAnalysis& a) {
  TextTable t({"FAULT", "AT", "STEP", "NODES", "SUSPECTED", "DEAD AFTER", "RECOVERY",
               "RECOMPUTED", "NOTE"});
  for (const auto& o : a.faults) {
    const InjectedFault& f = *o.fault;
    std::string at = secs(f.at_s);
    if (f.undone_s >= 0) at += " .. " + secs(f.undone_s);
    t.add_row({f.text, at, f.job >= 0 ? std::to_string(f.step) : "-", node_list(f.nodes),
               opt_secs(o.suspected_s), opt_secs(o.detected_s), opt_secs(o.recovery_s),
               o.steps_recomputed ? std::to_string(*o.steps_recomputed) : "-", o.note});
  }
  return t.render();
}

std::string alarms_text(const char* what, const std::vector<FalseAlarm>& alarms) {
  std::ostringstream out;
  out << what << ": " << alarms.size() << "\n";
  for (const auto& f : alarms) {
    out << "  at " << secs(f.t) << " node" << f.observer << " showed node" << f.target << " "
        << to_string(f.state) << "\n";
  }
  return out.str();
}

// "cpu       node1 0.2 cores (throttled 12.3 s), ... in cgroup v1 /sys/fs/cgroup/cpu/drift-fault-9"
std::string quotas_text(const FaultRunRecord& r) {
  const FaultScenario& s = *r.scenario;
  if (s.cpu_cores.empty()) return "";
  std::ostringstream out;
  out << "cpu       ";
  for (const auto& [k, cores] : s.cpu_cores) {
    out << "node" << k << " " << cores << " core" << (cores == 1 ? "" : "s");
    if (auto t = r.throttled_s.find(k); t != r.throttled_s.end() && t->second >= 0) {
      out << " (throttled " << secs(t->second) << ")";
    }
    out << ", ";
  }
  out << "period " << s.cpu_period_us / 1000.0 << " ms, in " << r.quotas << "\n";
  return out.str();
}

nlohmann::json opt(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nullptr; }

std::string hogs_text(const FaultScenario& s) {
  if (s.cpu_hogs == 0) return "";
  return ", " + std::to_string(s.cpu_hogs) + " CPU hogs" +
         (s.cpu_hogs_nice ? " at nice " + std::to_string(s.cpu_hogs_nice) : "");
}

}  // namespace

std::string fault_report_text(const FaultRunRecord& r, const FaultAnalysis& a) {
  const FaultScenario& s = *r.scenario;
  std::ostringstream out;
  out << "scenario  " << s.file << (s.title.empty() ? "" : " - " + s.title) << "\n"
      << "cluster   " << s.nodes << " daemons, " << r.network
      << hogs_text(s) << "\n"
      << quotas_text(r) << "run       " << secs(r.total_s) << (r.aborted.empty() ? "" : ", ABORTED: " + r.aborted)
      << "\n\n"
      << jobs_table(r);
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    for (const auto& n : r.jobs[i].notices) {
      out << "  job " << i << " notice at " << secs(n.t) << ": " << n.text << "\n";
    }
  }
  for (const auto& m : r.moves) out << "  migrate " << m << "\n";
  out << "\n" << (a.faults.empty() ? "no faults injected\n" : faults_table(a)) << "\n"
      << alarms_text("false suspicions", a.false_suspicions)
      << alarms_text("false deaths", a.false_deaths) << "daemon counters (suspicions/deaths seen):";
  for (const auto& [k, c] : r.counters) {
    out << " node" << k << " " << c.suspicions << "/" << c.deaths_declared;
  }
  out << "\nheartbeats and loops (late: > 2 intervals after the previous one from that member):";
  for (const auto& [k, c] : r.counters) {
    out << "\n  node" << k << ": " << c.late_heartbeats << " of " << c.heartbeats_received
        << " heartbeats late, longest gap " << c.longest_gap_ms << " ms; longest loop stall "
        << c.longest_stall_ms << " ms; " << c.refutations << " refutations, " << c.fences
        << " fences";
  }
  out << "\n\nchecks:\n";
  for (const auto& c : a.checks) {
    out << "  " << (c.passed ? "ok  " : "FAIL") << "  " << c.name
        << (c.detail.empty() ? "" : " (" + c.detail + ")") << "\n";
  }
  if (a.needs_recovery) {
    out << "note: a node holding tasks was lost and its job did not recover (see the job's "
           "result): this needs checkpoint/rollback recovery to pass\n";
  }
  out << "verdict: " << (a.passed() ? "PASS" : "FAIL")
      << (r.dir_kept ? "  (daemon logs in " + r.dir + ")" : "") << "\n";
  return out.str();
}

nlohmann::json fault_report_json(const FaultRunRecord& r, const FaultAnalysis& a) {
  const FaultScenario& s = *r.scenario;
  nlohmann::json jobs = nlohmann::json::array();
  for (const auto& j : r.jobs) {
    nlohmann::json notices = nlohmann::json::array();
    for (const auto& n : j.notices) {
      notices.push_back({{"t_s", n.t}, {"kind", n.kind == 1 ? "recovered" : "root changed"},
                         {"node", n.node}, {"step", n.step}, {"steps_recomputed", n.steps_recomputed},
                         {"recovery_s", n.recovery_s}, {"text", n.text}});
    }
    jobs.push_back({{"app", j.plan.app}, {"job", j.id ? format_job_id(j.id) : ""},
                    {"params", j.plan.params}, {"tasks", j.plan.tasks}, {"steps", j.plan.steps},
                    {"steps_done", j.steps_done}, {"correct", j.correct()},
                    {"result", job_outcome_text(j)}, {"checksum", j.checksum},
                    {"reference", j.reference}, {"submitted_s", j.submitted_s},
                    {"wall_s", j.wall_s}, {"recoveries", j.recoveries},
                    {"steps_recomputed", j.steps_recomputed}, {"notices", notices}});
  }
  nlohmann::json faults = nlohmann::json::array();
  for (const auto& o : a.faults) {
    const InjectedFault& f = *o.fault;
    faults.push_back({{"fault", f.text}, {"kind", to_string(f.kind)}, {"nodes", f.nodes},
                      {"at_s", f.at_s}, {"undone_s", f.undone_s < 0 ? nlohmann::json(nullptr) : nlohmann::json(f.undone_s)},
                      {"job", f.job}, {"step", f.step}, {"suspected_s", opt(o.suspected_s)},
                      {"detected_s", opt(o.detected_s)}, {"recovery_s", opt(o.recovery_s)},
                      {"steps_recomputed", o.steps_recomputed ? nlohmann::json(*o.steps_recomputed) : nullptr},
                      {"note", o.note}, {"error", f.error}});
  }
  const auto alarms = [](const std::vector<FalseAlarm>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : list) out.push_back({{"t_s", f.t}, {"observer", f.observer}, {"node", f.target}});
    return out;
  };
  nlohmann::json counters = nlohmann::json::object();
  for (const auto& [k, c] : r.counters) {
    counters[std::to_string(k)] = {{"suspicions", c.suspicions},
                                   {"deaths_declared", c.deaths_declared},
                                   {"refutations", c.refutations},
                                   {"fences", c.fences},
                                   {"heartbeats_received", c.heartbeats_received},
                                   {"late_heartbeats", c.late_heartbeats},
                                   {"longest_gap_ms", c.longest_gap_ms},
                                   {"longest_stall_ms", c.longest_stall_ms}};
  }
  nlohmann::json cores = nlohmann::json::object(), throttled = nlohmann::json::object();
  for (const auto& [k, c] : s.cpu_cores) cores[std::to_string(k)] = c;
  for (const auto& [k, t] : r.throttled_s) throttled[std::to_string(k)] = t;
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : a.checks) checks.push_back({{"check", c.name}, {"passed", c.passed}, {"detail", c.detail}});
  return {{"scenario", s.file}, {"title", s.title}, {"nodes", s.nodes}, {"network", r.network},
          {"cpu_hogs", s.cpu_hogs}, {"cpu_hogs_nice", s.cpu_hogs_nice}, {"run_s", r.total_s},
          {"aborted", r.aborted}, {"jobs", jobs},
          {"faults", faults}, {"false_suspicions", alarms(a.false_suspicions)},
          {"false_deaths", alarms(a.false_deaths)}, {"counters", counters}, {"checks", checks},
          {"needs_recovery", a.needs_recovery}, {"passed", a.passed()},
          {"cpu_cores", cores}, {"throttled_s", throttled}, {"moves", r.moves},
          {"log_dir", r.dir_kept ? r.dir : ""}};
}

}  // namespace drift::ctl
