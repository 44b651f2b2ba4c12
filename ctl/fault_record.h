// What one `driftctl fault run` did and saw, in seconds since the first job was submitted: the
// jobs with their outcomes and serial references, the faults as injected (nodes resolved), the
// JobNotices the roots sent, and the observer's member sightings and counters. Raw facts only;
// fault_report.h derives detection times, false suspicions and the verdict.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ctl/fault_observer.h"
#include "ctl/fault_scenario.h"

namespace drift::ctl {

struct InjectedFault {
  std::string text;    // the scenario line
  FaultKind kind = FaultKind::kKill;
  std::vector<int> nodes;  // hit (kill, stop, partition side a); empty for frame faults
  double at_s = 0;
  double undone_s = -1;    // restart, SIGCONT, heal or frames back to 0; -1 = never
  int job = -1;            // index of the job running then, -1 between jobs
  std::uint64_t step = 0;  // steps that job had reported
  std::string error;       // the action could not be carried out (e.g. restart of a live node)
};

struct NoticeRecord {
  double t = 0;
  std::uint8_t kind = 0;  // 1 recovered, 2 root changed
  std::uint32_t node = 0;
  std::uint64_t step = 0;
  std::uint64_t steps_recomputed = 0;
  double recovery_s = 0;
  std::string text;
};

struct JobRecord {
  JobPlan plan;
  std::string reference;   // the serial reference's checksum
  std::uint64_t id = 0;
  enum class End { kFinished, kFailed, kLost, kTimedOut, kNotRun } end = End::kNotRun;
  std::string checksum;
  std::string reason;      // why it failed, was lost or timed out
  double submitted_s = 0;
  double wall_s = 0;       // submit to end, at the harness
  std::uint64_t steps_done = 0;
  std::uint32_t recoveries = 0;
  std::uint64_t steps_recomputed = 0;
  std::vector<NoticeRecord> notices;

  bool correct() const { return end == End::kFinished && checksum == reference; }
};

struct FaultRunRecord {
  const FaultScenario* scenario = nullptr;
  std::string network;  // "loopback 127.0.0.1" or "netns 10.77.X.0/24"
  std::vector<JobRecord> jobs;
  std::vector<InjectedFault> faults;
  std::vector<MemberSighting> sightings;
  std::map<int, NodeCounters> counters;
  double total_s = 0;
  std::string dir;        // configs and logs of the run's daemons
  bool dir_kept = false;  // --keep-dir, or the run went wrong
  std::string aborted;  // set when the run stopped early (signal, setup failure mid-run)
  std::string quotas;   // where the CPU quotas' cgroups were; empty without quotas
  std::map<int, double> throttled_s;  // node -> CPU time its cgroup was throttled
  std::vector<std::string> moves;     // each migrate line's outcome
};

}  // namespace drift::ctl
