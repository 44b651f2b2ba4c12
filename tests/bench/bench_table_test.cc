// The benchmark's tables and report: Markdown layout, number formats, failures kept apart from
// missed targets.
#include "tests/bench/bench_table.h"

#include <gtest/gtest.h>

#include "tests/bench/bench_report.h"

namespace drift::bench {
namespace {

TEST(BenchTable, Formats) {
  EXPECT_EQ(format_seconds(1.234), "1.23 s");
  EXPECT_EQ(format_seconds(0.0123), "12.3 ms");
  EXPECT_EQ(format_seconds(0.000456), "456 µs");
  EXPECT_EQ(format_ratio(3, 2), "1.50×");
  EXPECT_EQ(format_ratio(3, 0), "—");
  EXPECT_EQ(format_met(true), "yes");
  EXPECT_EQ(format_met(false), "**NO**");
  EXPECT_EQ(format_met(std::nullopt), "—");
  EXPECT_EQ(format_size(1024), "1 KB");
  EXPECT_EQ(format_size(64ull << 20), "64 MB");
  EXPECT_EQ(format_size(1536), "1536 B");
}

TEST(BenchTable, RendersMarkdown) {
  BenchTable t;
  t.title = "(x) Demo";
  t.rows.push_back({"1 KB", "2 ms", "1 ms", "2.00×", "≤ 2× raw", "yes"});
  t.notes.push_back("a note");
  EXPECT_EQ(render_markdown(t),
            "### (x) Demo\n\n"
            "| case | drift | raw baseline | ratio | target | met? |\n"
            "|---|---:|---:|---:|---|---|\n"
            "| 1 KB | 2 ms | 1 ms | 2.00× | ≤ 2× raw | yes |\n"
            "\n- a note\n\n");
}

TEST(BenchReport, FailuresAreErrorsMissedTargetsAreNot) {
  BenchReport report;
  BenchTable t;
  t.title = "(a) Migration";
  t.rows.push_back({"64 MB", "9 s", "1 s", "9.00×", "≤ 2× raw", format_met(false)});
  t.add_failure({"1 MB", "", "1 ms", "", "—", ""}, "moving task 0: refused");
  report.tables.push_back(t);
  EXPECT_EQ(report.missed_targets(), 1);
  ASSERT_EQ(report.all_errors().size(), 1u);
  EXPECT_EQ(report.all_errors()[0], "(a) Migration, 1 MB: moving task 0: refused");
  const std::string text = render_report(report);
  EXPECT_NE(text.find("| 1 MB | FAILED | 1 ms | — | — | **NO** |"), std::string::npos) << text;
  EXPECT_NE(text.find("**Verdict:** 1 target(s) missed, 1 error(s)."), std::string::npos);
  EXPECT_NE(text.find("- ERROR: (a) Migration, 1 MB: moving task 0: refused"), std::string::npos);
}

}  // namespace
}  // namespace drift::bench
