#include "node/ctl/job_report.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

TEST(JobReportTest, JsonHasTheContractedFields) {
  JobResult r{7, "heat2d", "0x00ff", 200, 16, 1.5, {{"residual", "1e-3"}}};
  const auto j = job_report_json(report_of(r));
  EXPECT_EQ(j["app"], "heat2d");
  EXPECT_EQ(j["checksum"], "0x00ff");
  EXPECT_TRUE(j["checksum"].is_string());
  EXPECT_EQ(j["steps"], 200);
  EXPECT_EQ(j["tasks"], 16);
  EXPECT_DOUBLE_EQ(j["wall_s"].get<double>(), 1.5);
  EXPECT_EQ(j["job"], 7);
  EXPECT_EQ(j["details"]["residual"], "1e-3");
}

TEST(JobReportTest, TextHasOneLinePerField) {
  const std::string text = job_report_text({"heat2d", "0xab", 10, 1, 0.25, "serial", 0, {}});
  EXPECT_NE(text.find("heat2d (serial reference)"), std::string::npos) << text;
  EXPECT_NE(text.find("checksum   0xab\n"), std::string::npos) << text;
  EXPECT_NE(text.find("wall time  0.250 s\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace drift::ctl
