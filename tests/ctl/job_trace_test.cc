// The job's timeline as JSON lines (ctl/job_trace.h): one object a line, in order, with "t".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "ctl/job_trace.h"
#include "tests/workers/temp_dir.h"

namespace drift::ctl {
namespace {

std::vector<nlohmann::json> read_lines(const std::filesystem::path& file) {
  std::vector<nlohmann::json> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(JobTrace, WritesEachEventAsALineWithItsTime) {
  test::TempDir dir;
  const auto file = std::filesystem::path(dir.path()) / "t.jsonl";
  auto trace = JobTrace::open(file.string());
  ASSERT_TRUE(trace) << trace.error();
  (*trace)->submitted(JobSpec{"heat2d", 4, 10, {}, {}});
  (*trace)->progress(JobProgress{0x10002, 1, 10, {1.5}});
  (*trace)->notice(JobNotice{0x10002, JobNoticeKind::kRecovered, 3, 0, 1, 0.25, "node 3 died"});
  (*trace)->notice(JobNotice{0x10002, JobNoticeKind::kRootChanged, 2, 0, 0, 0, "node 2 is root"});
  (*trace)->end(JobFailed{0x10002, "cancelled by alice"});
  const auto lines = read_lines(file);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0]["event"], "submitted");
  EXPECT_EQ(lines[0]["steps"], 10);
  EXPECT_EQ(lines[1]["event"], "step");
  EXPECT_EQ(lines[1]["job"], "0x10002");
  EXPECT_EQ(lines[2]["event"], "recovered");
  EXPECT_EQ(lines[2]["node"], 3);
  EXPECT_EQ(lines[2]["step"], 0);
  EXPECT_EQ(lines[2]["steps_recomputed"], 1);
  EXPECT_EQ(lines[3]["event"], "root_changed");
  EXPECT_FALSE(lines[3].contains("steps_recomputed"));
  EXPECT_EQ(lines[4]["event"], "failed");
  EXPECT_EQ(lines[4]["reason"], "cancelled by alice");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    EXPECT_GE(lines[i]["t"].get<double>(), lines[i - 1]["t"].get<double>());
  }
}

TEST(JobTrace, AFileThatCannotBeWrittenIsAnErrorNamingIt) {
  auto trace = JobTrace::open("/nonexistent-dir/t.jsonl");
  ASSERT_FALSE(trace);
  EXPECT_NE(trace.error().find("--trace /nonexistent-dir/t.jsonl"), std::string::npos)
      << trace.error();
}

}  // namespace
}  // namespace drift::ctl
