// task_id_text: job ids print as 0x-hex and read back as 0x-hex or decimal; JOB:INDEX parsing.
#include "ctl/task_id_text.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

TEST(TaskIdTextTest, JobIdsPrintAsHexWithPrefix) {
  EXPECT_EQ(format_job_id(0x1a2b3c0001), "0x1a2b3c0001");
  EXPECT_EQ(format_job_id(0), "0x0");
  EXPECT_EQ(format_job_id(~std::uint64_t{0}), "0xffffffffffffffff");
  EXPECT_EQ(format_task_id({0x1a2b3c0001, 5}), "0x1a2b3c0001:5");
}

TEST(TaskIdTextTest, WhatIsPrintedReadsBack) {
  for (std::uint64_t job : {std::uint64_t{1}, std::uint64_t{0x1a2b3c0001}, ~std::uint64_t{0}}) {
    auto parsed = parse_job_id(format_job_id(job));
    ASSERT_TRUE(parsed) << parsed.error();
    EXPECT_EQ(*parsed, job);
  }
  auto task = parse_task_id(format_task_id({0x20003ffff, 4294967295u}));
  ASSERT_TRUE(task) << task.error();
  EXPECT_EQ(*task, (TaskId{0x20003ffff, 4294967295u}));
}

TEST(TaskIdTextTest, AcceptsDecimalAndUpperCaseHex) {
  EXPECT_EQ(*parse_job_id("112394715137"), 112394715137u);
  EXPECT_EQ(*parse_job_id("0X1A2B"), 0x1a2bu);
  EXPECT_EQ(*parse_task_id("7:0"), (TaskId{7, 0}));
}

TEST(TaskIdTextTest, BadJobIdsAreRefusedNamingTheText) {
  for (const char* bad : {"", "0x", "-1", "+1", " 7", "7 ", "0x-1", "12z", "0x1g",
                          "18446744073709551616", "0x10000000000000000"}) {
    auto parsed = parse_job_id(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_NE(parsed.error().find(std::string("'") + bad + "'"), std::string::npos)
        << parsed.error();
  }
}

TEST(TaskIdTextTest, BareHexGetsAHint) {
  auto parsed = parse_job_id("1a2b3c");
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().find("0x1a2b3c"), std::string::npos) << parsed.error();
}

TEST(TaskIdTextTest, BadTasksSayWhichHalfIsWrong) {
  auto no_colon = parse_task_id("0x1a2b");
  ASSERT_FALSE(no_colon);
  EXPECT_NE(no_colon.error().find("not JOB:INDEX"), std::string::npos) << no_colon.error();

  auto bad_job = parse_task_id("xyz:3");
  ASSERT_FALSE(bad_job);
  EXPECT_NE(bad_job.error().find("job 'xyz'"), std::string::npos) << bad_job.error();

  for (const char* bad : {"0x1a:", "0x1a:-1", "0x1a:x", "0x1a:4294967296", "0x1a:1:2"}) {
    auto parsed = parse_task_id(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_NE(parsed.error().find(std::string("task '") + bad + "'"), std::string::npos)
        << parsed.error();
  }
}

}  // namespace
}  // namespace drift::ctl
