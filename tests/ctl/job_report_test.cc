// job_report: the end of `driftctl run` as text and as JSON, cluster and serial.
#include "ctl/job_report.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

TEST(JobReportTest, JsonHasTheContractedFields) {
  JobResult r;
  r.job = 7;
  r.app = "heat2d";
  r.checksum = "0x00ff";
  r.steps = 200;
  r.tasks = 16;
  r.wall_s = 1.5;
  r.details = {{"residual", "1e-3"}};
  const auto j = job_report_json(report_of(r));
  EXPECT_EQ(j["app"], "heat2d");
  EXPECT_EQ(j["checksum"], "0x00ff");
  EXPECT_TRUE(j["checksum"].is_string());
  EXPECT_EQ(j["steps"], 200);
  EXPECT_EQ(j["tasks"], 16);
  EXPECT_DOUBLE_EQ(j["wall_s"].get<double>(), 1.5);
  EXPECT_EQ(j["job"], "0x7");
  EXPECT_EQ(j["details"]["residual"], "1e-3");
}

TEST(JobReportTest, TextHasOneLinePerField) {
  const std::string text = job_report_text({"heat2d", "0xab", 10, 1, 0.25, "serial", 0, {}, {}, 0});
  EXPECT_NE(text.find("heat2d (serial reference)"), std::string::npos) << text;
  EXPECT_NE(text.find("checksum   0xab\n"), std::string::npos) << text;
  EXPECT_NE(text.find("wall time  0.250 s\n"), std::string::npos) << text;
}

TEST(JobReportTest, ClusterJobsShowTheirIdAsTasksAndMigrateTakeIt) {
  JobResult r;
  r.job = 0x1a2b3c0001;
  r.app = "heat2d";
  const std::string text = job_report_text(report_of(r));
  EXPECT_NE(text.find("job         0x1a2b3c0001\n"), std::string::npos) << text;
  EXPECT_EQ(job_report_json(report_of(r))["job"], "0x1a2b3c0001");
  const auto serial = job_report_json({"heat2d", "0xab", 10, 1, 0.25, "serial", 0, {}, {}, 0});
  EXPECT_FALSE(serial.contains("job"));
}

TEST(JobReportTest, ClusterJobsReportStepTimesAndMigrations) {
  JobResult r;
  r.job = 9;
  r.app = "particles";
  r.step_s = {4.5, 0.5, 0.25, 0.75};
  r.migrations = 42;
  const auto j = job_report_json(report_of(r));
  ASSERT_EQ(j["step_s"].size(), 4u);
  EXPECT_DOUBLE_EQ(j["step_s"][0].get<double>(), 4.5);
  EXPECT_DOUBLE_EQ(j["step_s"][3].get<double>(), 0.75);
  EXPECT_EQ(j["migrations"], 42);
  const std::string text = job_report_text(report_of(r));
  EXPECT_NE(text.find("migrations  42\n"), std::string::npos) << text;
  EXPECT_NE(text.find("median 0.750 s, first 4.500 s, last 0.750 s"), std::string::npos) << text;
  const auto serial = job_report_json({"heat2d", "0xab", 10, 1, 0.25, "serial", 0, {}, {}, 0});
  EXPECT_FALSE(serial.contains("step_s"));
}

}  // namespace
}  // namespace drift::ctl
