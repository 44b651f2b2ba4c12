// Benchmark tables (bench_table.h).
#include "tests/bench/bench_table.h"

#include <algorithm>
#include <cstdio>

namespace drift::bench {

void BenchTable::add_failure(BenchRow row, const std::string& reason) {
  row.drift = "FAILED";
  row.ratio = "—";
  row.met = format_met(false);
  notes.push_back(row.label + ": " + reason);
  errors.push_back(title + ", " + row.label + ": " + reason);
  rows.push_back(std::move(row));
}

bool BenchTable::missed_target() const {
  return std::any_of(rows.begin(), rows.end(),
                     [](const BenchRow& r) { return r.met == format_met(false); });
}

std::string render_markdown(const BenchTable& table) {
  std::string out = "### " + table.title + "\n\n";
  out += "| case | drift | raw baseline | ratio | target | met? |\n";
  out += "|---|---:|---:|---:|---|---|\n";
  for (const BenchRow& r : table.rows) {
    out += "| " + r.label + " | " + r.drift + " | " + r.raw + " | " + r.ratio + " | " + r.target +
           " | " + r.met + " |\n";
  }
  if (!table.notes.empty()) out += "\n";
  for (const std::string& n : table.notes) out += "- " + n + "\n";
  return out + "\n";
}

std::string format_fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string format_seconds(double seconds) {
  auto with_unit = [](double v, const char* unit) {
    return format_fixed(v, v >= 100 ? 0 : v >= 10 ? 1 : 2) + unit;
  };
  if (seconds >= 1) return with_unit(seconds, " s");
  if (seconds >= 1e-3) return with_unit(seconds * 1e3, " ms");
  return with_unit(seconds * 1e6, " µs");
}

std::string format_size(std::uint64_t bytes) {
  static constexpr const char* kUnit[] = {" B", " KB", " MB", " GB"};
  int i = 0;
  while (i < 3 && bytes != 0 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++i;
  }
  return std::to_string(bytes) + kUnit[i];
}

std::string format_ratio(double drift, double raw) {
  if (raw <= 0) return "—";
  return format_fixed(drift / raw, 2) + "×";
}

std::string format_met(std::optional<bool> met) {
  if (!met) return "—";
  return *met ? "yes" : "**NO**";
}

}  // namespace drift::bench
