// A process's CPU time from /proc/PID/stat (parse_process_cpu, process_cpu_seconds).
#include "node/machine/process_cpu.h"

#include <gtest/gtest.h>

#include <unistd.h>

namespace drift {
namespace {

TEST(ProcessCpuTest, AddsUserAndSystemTicks) {
  // Fields: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
  // utime stime ...
  const char* stat = "4242 (ballast) S 1 4242 4242 0 -1 4194560 120 0 3 0 250 50 0 0 20 0 1";
  auto cpu = parse_process_cpu(stat, 100);
  ASSERT_TRUE(cpu);
  EXPECT_DOUBLE_EQ(*cpu, 3.0);
}

TEST(ProcessCpuTest, ACommandNameWithSpacesAndParenthesesIsSkippedWhole) {
  const char* stat = "7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 7 3 0 0 20 0 1";
  auto cpu = parse_process_cpu(stat, 10);
  ASSERT_TRUE(cpu);
  EXPECT_DOUBLE_EQ(*cpu, 1.0);
}

TEST(ProcessCpuTest, MalformedTextIsNothing) {
  EXPECT_FALSE(parse_process_cpu("", 100));
  EXPECT_FALSE(parse_process_cpu("12 (x) S 1 2 3", 100));  // cut before utime
  EXPECT_FALSE(parse_process_cpu("12 (x) S 1 2 3 4 5 6 7 8 9 10 x1 2", 100));
  EXPECT_FALSE(parse_process_cpu("12 x S 1 2 3 4 5 6 7 8 9 10 11 12", 100));  // no ')'
  EXPECT_FALSE(parse_process_cpu("12 (x) S 1 2 3 4 5 6 7 8 9 10 11 12", 0));
}

TEST(ProcessCpuTest, ThisProcessesTimeGrowsAsItComputes) {
  auto before = process_cpu_seconds(::getpid());
  ASSERT_TRUE(before);
  volatile unsigned long sink = 0;
  auto now = before;
  for (int round = 0; round < 1000 && now && *now <= *before; ++round) {
    for (unsigned long i = 0; i < 10'000'000; ++i) sink = sink + i;
    now = process_cpu_seconds(::getpid());
  }
  ASSERT_TRUE(now);
  EXPECT_GT(*now, *before);
}

TEST(ProcessCpuTest, AProcessThatIsGoneIsNothing) {
  EXPECT_FALSE(process_cpu_seconds(-1));
}

}  // namespace
}  // namespace drift
