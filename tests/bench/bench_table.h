// One table of the benchmark's report: rows of "case | drift | raw baseline | ratio | target |
// met?", notes under it (samples, failures), and whether any row failed with an error (as
// opposed to missing its target). Rendered as Markdown, printed and written to the results file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace drift::bench {

struct BenchRow {
  std::string label;
  std::string drift;
  std::string raw = "—";
  std::string ratio = "—";
  std::string target = "—";
  std::string met = "—";
};

struct BenchTable {
  std::string title;
  std::vector<BenchRow> rows;
  std::vector<std::string> notes;
  std::vector<std::string> errors;  // drift or the harness failed; also listed in the notes

  // Adds a row whose drift measurement failed: "FAILED", met "**NO**", the reason as a note.
  void add_failure(BenchRow row, const std::string& reason);
  bool missed_target() const;
};

std::string render_markdown(const BenchTable& table);

// "12.3 ms", "456 µs", "1.23 s".
std::string format_seconds(double seconds);
// "1.42×"; "—" when the baseline is 0.
std::string format_ratio(double drift, double raw);
// "yes" or "**NO**"; `nullopt` (no target for this row) gives "—".
std::string format_met(std::optional<bool> met);
// "1 KB", "64 MB", "1536 B": a byte count in binary units, as the tables label sizes.
std::string format_size(std::uint64_t bytes);
// printf("%.*f") as a string.
std::string format_fixed(double value, int decimals);

}  // namespace drift::bench
