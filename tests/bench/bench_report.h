// The benchmark's whole report: a title, where and how it ran, the tables, and a verdict that
// keeps missed targets (drift is slower than it should be) apart from errors (something failed:
// a migration, a job, the cluster, the harness). Written as Markdown to the results file and
// printed the same.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <drift/status.h>
#include "tests/bench/bench_table.h"
#include "tests/bench/machine_info.h"

namespace drift::bench {

struct BenchReport {
  MachineInfo machine;
  bool quick = false;
  std::string setup;  // one sentence on the cluster
  std::vector<BenchTable> tables;
  std::vector<std::string> errors;  // outside any table (e.g. the cluster did not start)

  // errors plus every table's.
  std::vector<std::string> all_errors() const;
  int missed_targets() const;
};

std::string render_report(const BenchReport& report);
// Creates the parent directory if needed; the error names the file.
Status write_report(const std::filesystem::path& file, const std::string& text);

}  // namespace drift::bench
