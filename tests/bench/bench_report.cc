// The benchmark report (bench_report.h).
#include "tests/bench/bench_report.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace drift::bench {

std::vector<std::string> BenchReport::all_errors() const {
  std::vector<std::string> out = errors;
  for (const BenchTable& t : tables) out.insert(out.end(), t.errors.begin(), t.errors.end());
  return out;
}

int BenchReport::missed_targets() const {
  int n = 0;
  for (const BenchTable& t : tables) {
    n += static_cast<int>(std::count_if(t.rows.begin(), t.rows.end(), [](const BenchRow& r) {
      return r.met == format_met(false) && r.drift != "FAILED";
    }));
  }
  return n;
}

std::string render_report(const BenchReport& report) {
  std::string out = "# drift: migration, latency and forwarding beside raw TCP\n\n";
  out += describe(report.machine) + (report.quick ? "; **quick mode** (smoke test sizes)" : "") +
         ".\n" + report.setup + "\n\n";
  for (const BenchTable& t : report.tables) out += render_markdown(t);
  const auto errors = report.all_errors();
  const int missed = report.missed_targets();
  out += "**Verdict:** " +
         (errors.empty() && missed == 0 ? std::string("every target met, no errors.")
                                        : std::to_string(missed) + " target(s) missed, " +
                                              std::to_string(errors.size()) + " error(s).") +
         "\n";
  for (const std::string& e : errors) out += "- ERROR: " + e + "\n";
  return out;
}

Status write_report(const std::filesystem::path& file, const std::string& text) {
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Status::error("cannot write " + file.string() + ": " + std::strerror(errno));
  return Status::ok();
}

}  // namespace drift::bench
