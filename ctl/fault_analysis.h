// What a fault run's raw record means: per injected fault, how long until a survivor's status
// showed the node suspect and dead (detection), the recovery the job's root reported in its
// JobNotice (time, steps recomputed); false suspicions and false deaths (a node that was not
// faulted then, shown suspect/dead by a node that was not faulted either); and the checks.
// A node counts as faulted from the fault until kGraceS after it was undone (a resumed or healed
// node needs a few heartbeats before its own view is trustworthy again). The identities
// (incarnations) of a killed process count as faulted for good: a death of one of them is the
// kill's detection, even when it comes after the node's restart and grace. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ctl/fault_record.h"

namespace drift::ctl {

inline constexpr double kGraceS = 3.0;

struct FaultOutcome {
  const InjectedFault* fault = nullptr;
  std::optional<double> suspected_s;  // after the fault; the first target shown suspect
  std::optional<double> detected_s;   // after the fault; the last target shown dead
  std::optional<double> recovery_s;   // from the root's JobNotice (declared dead -> running)
  std::optional<std::uint64_t> steps_recomputed;
  std::string note;  // e.g. "job failed: ...", "not declared dead"
};

struct FalseAlarm {
  double t = 0;
  int observer = 0;
  int target = 0;
  MemberState state = MemberState::kSuspect;
};

struct FaultCheck {
  std::string name;
  bool passed = false;
  std::string detail;
};

struct FaultAnalysis {
  std::vector<FaultOutcome> faults;
  std::vector<FalseAlarm> false_suspicions;
  std::vector<FalseAlarm> false_deaths;
  std::vector<FaultCheck> checks;
  // Faults that need recovery to pass (a node with tasks lost) while no job recovered.
  bool needs_recovery = false;

  bool passed() const;
};

FaultAnalysis analyse_fault_run(const FaultRunRecord& record);

// "finished, correct", "finished, WRONG checksum ...", "failed: <reason>", ...
std::string job_outcome_text(const JobRecord& job);

}  // namespace drift::ctl
