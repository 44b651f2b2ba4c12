// The end of `driftctl run`, for people or for scripts. The same report serves a cluster job
// (from JobResult) and the serial reference (--serial, tasks = 1), so their checksums can be
// compared line by line or with jq. JSON: {"app","checksum","steps","tasks","wall_s","mode",
// "job","details":{...},"step_s":[...],"migrations":N,"recoveries":N,"steps_recomputed":N};
// checksum is a string; recoveries counts rollbacks after node failures; step_s holds the
// wall seconds of each step as the job's root measured them (empty for a serial run). A cluster job's id (text row "job", JSON "job")
// is a string in the form `tasks` prints and `migrate` takes, "0x1a2b3c0001" (task_id_text.h);
// a serial run has none.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "protocol/messages.h"

namespace drift::ctl {

struct JobReport {
  std::string app;
  std::string checksum;
  std::uint64_t steps = 0;
  std::uint32_t tasks = 0;
  double wall_s = 0;
  std::string mode;  // "cluster" or "serial"
  std::uint64_t job = 0;
  std::map<std::string, std::string> details;
  std::vector<double> step_s;
  std::uint64_t migrations = 0;
  std::uint32_t recoveries = 0;
  std::uint64_t steps_recomputed = 0;
  std::uint32_t splits = 0;
  std::uint32_t merges = 0;
};

JobReport report_of(const JobResult& result);

std::string job_report_text(const JobReport& report);
nlohmann::json job_report_json(const JobReport& report);

}  // namespace drift::ctl
