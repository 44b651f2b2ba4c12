// `driftctl run … --trace FILE`: the job's timeline as the client sees it, one JSON object per
// line, each with "t" (seconds since the run began) and "event":
//   {"event":"submitted","app","tasks","steps"}
//   {"event":"step","job","step","steps"}                       a step completed
//   {"event":"recovered","node","step","steps_recomputed","recovery_s","text"}   a rollback
//   {"event":"root_changed"|"waiting"|"queued"|"sat_out"|"not_here","node","text"}
//   {"event":"done","checksum","wall_s","step_s":[…],"migrations","recoveries",
//    "steps_recomputed","splits","merges"} or {"event":"failed","reason"}
// scripts/plot-trace.py draws it (step time over steps, rollbacks marked) as SVG.
#pragma once

#include <chrono>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include <drift/status.h>
#include "ctl/job_client.h"

namespace drift::ctl {

class JobTrace {
 public:
  // The file is created (truncated); the error names it.
  static Result<std::unique_ptr<JobTrace>> open(const std::string& path);

  void submitted(const JobSpec& spec);
  void progress(const JobProgress& p);
  void notice(const JobNotice& n);
  void end(const JobEndMessage& end);

 private:
  explicit JobTrace(std::ofstream out) : out_(std::move(out)) {}
  void write(nlohmann::json line);

  std::ofstream out_;
  std::chrono::steady_clock::time_point begin_ = std::chrono::steady_clock::now();
};

}  // namespace drift::ctl
