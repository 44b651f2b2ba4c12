// Detection times, recoveries, false alarms and checks of a fault run (fault_analysis.h).
#include "ctl/fault_analysis.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace drift::ctl {

namespace {

constexpr double kForever = std::numeric_limits<double>::infinity();

bool hits_nodes(FaultKind k) {
  return k == FaultKind::kKill || k == FaultKind::kStop || k == FaultKind::kPartition;
}

struct Window {
  int node;
  double from, to;
};

// When each node was killed, paused or cut off (plus the grace after it came back).
std::vector<Window> fault_windows(const FaultRunRecord& r) {
  std::vector<Window> out;
  for (const auto& f : r.faults) {
    if (!hits_nodes(f.kind) || !f.error.empty()) continue;
    for (int n : f.nodes) out.push_back({n, f.at_s, f.undone_s < 0 ? kForever : f.undone_s + kGraceS});
  }
  return out;
}

bool faulted_at(const std::vector<Window>& windows, int node, double t) {
  return std::any_of(windows.begin(), windows.end(),
                     [&](const Window& w) { return w.node == node && t >= w.from && t <= w.to; });
}

// A process the run killed: `node`'s identities up to `incarnation` (the highest anyone showed it
// at by the kill; it refutes with higher ones, a process started later takes a newer one) are
// gone for good, so showing one suspect or dead is right whenever it comes — even after a
// restart and its grace (a slow node's old identity may be declared dead while its new process
// is still starting).
struct KilledProcess {
  const InjectedFault* fault;
  int node;
  std::uint64_t incarnation;

  bool holds(const MemberSighting& s) const {
    return s.target == node && s.t >= fault->at_s && s.incarnation <= incarnation;
  }
};

std::vector<KilledProcess> killed_processes(const FaultRunRecord& r) {
  std::vector<KilledProcess> out;
  for (const auto& f : r.faults) {
    if (f.kind != FaultKind::kKill || !f.error.empty()) continue;
    for (int n : f.nodes) {
      std::uint64_t most = 0;
      for (const auto& s : r.sightings) {
        if (s.target == n && s.t <= f.at_s) most = std::max(most, s.incarnation);
      }
      out.push_back({&f, n, most});
    }
  }
  return out;
}

bool of_killed_process(const std::vector<KilledProcess>& killed, const MemberSighting& s,
                       const InjectedFault* by = nullptr) {
  return std::any_of(killed.begin(), killed.end(), [&](const KilledProcess& k) {
    return (by == nullptr || k.fault == by) && k.holds(s);
  });
}

// The first time after the fault that a healthy survivor showed `target` in `state`.
std::optional<double> first_sighting(const FaultRunRecord& r, const std::vector<Window>& windows,
                                     const std::vector<KilledProcess>& killed,
                                     const InjectedFault& f, int target, MemberState state) {
  const double until = f.undone_s < 0 ? kForever : f.undone_s + kGraceS;
  for (const auto& s : r.sightings) {
    if (s.target != target || s.state != state || s.t < f.at_s) continue;
    if (s.t > until && !of_killed_process(killed, s, &f)) continue;
    if (s.observer == target || faulted_at(windows, s.observer, s.t)) continue;
    return s.t - f.at_s;
  }
  return std::nullopt;
}

FaultOutcome outcome_of(const FaultRunRecord& r, const std::vector<Window>& windows,
                        const std::vector<KilledProcess>& killed,
                        const InjectedFault& f) {
  FaultOutcome o;
  o.fault = &f;
  if (!f.error.empty()) {
    o.note = "not done: " + f.error;
    return o;
  }
  if (!hits_nodes(f.kind)) return o;
  bool all_dead = true;
  double last_dead = 0;
  for (int n : f.nodes) {
    auto suspect = first_sighting(r, windows, killed, f, n, MemberState::kSuspect);
    auto dead = first_sighting(r, windows, killed, f, n, MemberState::kDead);
    if (suspect && (!o.suspected_s || *suspect < *o.suspected_s)) o.suspected_s = suspect;
    if (dead && (!o.suspected_s || *dead < *o.suspected_s)) o.suspected_s = dead;  // seen dead first
    all_dead = all_dead && dead.has_value();
    if (dead) last_dead = std::max(last_dead, *dead);
  }
  if (all_dead) o.detected_s = last_dead;
  if (!all_dead) o.note = "not declared dead";
  if (f.job >= 0 && f.job < static_cast<int>(r.jobs.size())) {
    const JobRecord& job = r.jobs[static_cast<std::size_t>(f.job)];
    for (const auto& n : job.notices) {
      const bool ours = std::find(f.nodes.begin(), f.nodes.end(), static_cast<int>(n.node)) !=
                        f.nodes.end();
      if (n.kind == 1 && ours && n.t >= f.at_s) {
        o.recovery_s = n.recovery_s;
        o.steps_recomputed = n.steps_recomputed;
        break;
      }
    }
    if (!o.recovery_s && all_dead && job.end != JobRecord::End::kFinished) {
      o.note = "job " + job_outcome_text(job);
    }
  }
  return o;
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", 100 * share);
  return buf;
}

void add_checks(const FaultRunRecord& r, FaultAnalysis& a) {
  const FaultExpectations& e = r.scenario->expect;
  auto check = [&](std::string name, bool passed, std::string detail) {
    a.checks.push_back({std::move(name), passed, std::move(detail)});
  };
  check("run completed", r.aborted.empty(), r.aborted.empty() ? "" : r.aborted);
  std::string undone;
  auto add_undone = [&](const std::string& text) { undone += (undone.empty() ? "" : "; ") + text; };
  for (const auto& o : a.faults) {
    if (!o.fault->error.empty()) add_undone(o.fault->text + ": " + o.fault->error);
  }
  // A fault at a time or a step that never came (the jobs ended before it) was not carried out.
  for (const FaultEntry& f : r.scenario->faults) {
    if (f.when.kind == FaultTrigger::Kind::kEvery) continue;
    const bool came = std::any_of(a.faults.begin(), a.faults.end(),
                                  [&](const FaultOutcome& o) { return o.fault->text == f.text; });
    if (!came) add_undone(f.text + ": never came (" + f.origin + "; the jobs ended first)");
  }
  check("every fault carried out", undone.empty(), undone);
  if (e.correct) {
    int right = 0;
    std::string wrong;
    for (const auto& j : r.jobs) {
      if (j.correct()) ++right;
      else wrong += (wrong.empty() ? "" : "; ") + j.plan.app + " " + job_outcome_text(j);
    }
    check("result correct against the serial reference", !r.jobs.empty() && wrong.empty(),
          std::to_string(right) + " of " + std::to_string(r.jobs.size()) + " jobs correct" +
              (wrong.empty() ? "" : ": " + wrong));
  }
  if (e.max_recoveries) {
    std::uint32_t most = 0;
    std::string which;
    for (const auto& j : r.jobs) {
      if (j.recoveries >= most) {
        most = j.recoveries;
        which = j.plan.app + " " + std::to_string(j.recoveries);
      }
    }
    check("recoveries per job <= " + std::to_string(*e.max_recoveries), most <= *e.max_recoveries,
          which.empty() ? "no job" : which);
  }
  check("false deaths <= " + std::to_string(e.max_false_deaths),
        static_cast<int>(a.false_deaths.size()) <= e.max_false_deaths,
        std::to_string(a.false_deaths.size()) + " seen");
  if (e.max_stall_s) {
    std::string worst;
    std::uint64_t longest = 0;
    for (const auto& [k, c] : r.counters) {
      if (c.longest_stall_ms >= longest) {
        longest = c.longest_stall_ms;
        worst = "node " + std::to_string(k) + ": " + std::to_string(c.longest_stall_ms) + " ms";
      }
    }
    check("longest event-loop stall <= " + seconds(*e.max_stall_s),
          static_cast<double>(longest) / 1000 <= *e.max_stall_s, worst);
  }
  if (e.max_late_heartbeats) {
    std::uint64_t late = 0, received = 0;
    for (const auto& [k, c] : r.counters) {
      late += c.late_heartbeats;
      received += c.heartbeats_received;
    }
    const double share = received ? static_cast<double>(late) / static_cast<double>(received) : 0;
    check("late heartbeats <= " + percent(*e.max_late_heartbeats),
          received > 0 && share <= *e.max_late_heartbeats,
          std::to_string(late) + " of " + std::to_string(received) + " (" + percent(share) + ")");
  }
  if (e.max_false_suspicions) {
    check("false suspicions <= " + std::to_string(*e.max_false_suspicions),
          static_cast<int>(a.false_suspicions.size()) <= *e.max_false_suspicions,
          std::to_string(a.false_suspicions.size()) + " seen");
  }
  for (const auto& o : a.faults) {
    if (!hits_nodes(o.fault->kind) || !o.fault->error.empty()) continue;
    if (e.faulted_declared_dead) {
      const bool want = *e.faulted_declared_dead;
      check(o.fault->text + (want ? ": declared dead" : ": not declared dead"),
            o.detected_s.has_value() == want,
            o.detected_s ? "dead after " + seconds(*o.detected_s) : "never shown dead");
    }
    if (e.max_steps_recomputed && o.steps_recomputed) {
      check(o.fault->text + ": at most " + std::to_string(*e.max_steps_recomputed) +
                " steps recomputed",
            *o.steps_recomputed <= *e.max_steps_recomputed, std::to_string(*o.steps_recomputed));
    }
    if (e.max_detection_s && o.detected_s) {
      check(o.fault->text + ": detected within " + seconds(*e.max_detection_s),
            *o.detected_s <= *e.max_detection_s, seconds(*o.detected_s));
    }
  }
}

}  // namespace

bool FaultAnalysis::passed() const {
  return std::all_of(checks.begin(), checks.end(), [](const FaultCheck& c) { return c.passed; });
}

std::string job_outcome_text(const JobRecord& j) {
  switch (j.end) {
    case JobRecord::End::kFinished:
      return j.checksum == j.reference
                 ? "finished, correct"
                 : "finished, WRONG checksum " + j.checksum + " (reference " + j.reference + ")";
    case JobRecord::End::kFailed: return "failed: " + j.reason;
    case JobRecord::End::kLost: return "lost: " + j.reason;
    case JobRecord::End::kTimedOut: return "timed out: " + j.reason;
    case JobRecord::End::kNotRun: break;
  }
  return "not run";
}

FaultAnalysis analyse_fault_run(const FaultRunRecord& r) {
  FaultAnalysis a;
  const auto windows = fault_windows(r);
  const auto killed = killed_processes(r);
  for (const auto& f : r.faults) a.faults.push_back(outcome_of(r, windows, killed, f));
  for (const auto& s : r.sightings) {
    if (faulted_at(windows, s.target, s.t) || faulted_at(windows, s.observer, s.t)) continue;
    if (of_killed_process(killed, s)) continue;
    if (s.state == MemberState::kSuspect) a.false_suspicions.push_back({s.t, s.observer, s.target, s.state});
    if (s.state == MemberState::kDead) a.false_deaths.push_back({s.t, s.observer, s.target, s.state});
  }
  for (const auto& o : a.faults) {
    const bool lost_tasks = o.fault->kind != FaultKind::kStop || o.detected_s.has_value();
    // A job that finished did recover (two failures at once get one recovery, named after one).
    const bool finished = o.fault->job >= 0 &&
                          o.fault->job < static_cast<int>(r.jobs.size()) &&
                          r.jobs[static_cast<std::size_t>(o.fault->job)].end ==
                              JobRecord::End::kFinished;
    if (hits_nodes(o.fault->kind) && o.fault->error.empty() && lost_tasks && !o.recovery_s &&
        o.fault->job >= 0 && !finished) {
      a.needs_recovery = true;
    }
  }
  add_checks(r, a);
  return a;
}

}  // namespace drift::ctl
