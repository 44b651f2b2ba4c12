// step_overhead: the CPU a step costs a node beyond its computes, from its readings.
#include "node/machine/step_overhead.h"

#include <gtest/gtest.h>

#include <cmath>

namespace drift {
namespace {

TEST(StepOverheadTest, CpuBeyondTheComputesPerStepOfEachTask) {
  // 0.5 s of CPU, 0.3 s of it computing, while 4 tasks took 20 steps each: 10 ms a step; 5 ms
  // if the daemon would have spent 0.1 s of it anyway.
  EXPECT_DOUBLE_EQ(*overhead_per_step(0.5, 0.3, 0, 80, 4), 0.01);
  EXPECT_DOUBLE_EQ(*overhead_per_step(0.5, 0.3, 0.1, 80, 4), 0.005);
  EXPECT_FALSE(overhead_per_step(0.5, 0.3, 0, 36, 4)) << "9 steps each: too few to judge by";
  EXPECT_FALSE(overhead_per_step(0.5, 0.3, 0, 20, 0)) << "no task";
  EXPECT_FALSE(overhead_per_step(-1, 0.3, 0, 20, 2));
  EXPECT_EQ(*overhead_per_step(0.3, 0.31, 0, 20, 2), 0) << "clocks read apart: never below 0";
  EXPECT_EQ(*overhead_per_step(0.5, 0.3, 0.4, 20, 2), 0) << "less than the idle daemon's: none";
}

std::vector<TaskId> tasks(std::uint32_t n) {
  std::vector<TaskId> out;
  for (std::uint32_t i = 0; i < n; ++i) out.push_back({7, i});
  return out;
}

// Readings of `n` tasks stepping together every `step_s`, each step costing `compute_s` of
// computing and `beyond_s` besides, every heartbeat (0.1 s) from `from_s` for `seconds`; the
// job's start (0.5 s of CPU for the worker and the tasks' creation) in the first.
void run(StepOverhead& o, double from_s, double seconds, std::uint32_t n, double step_s,
         double compute_s, double beyond_s) {
  for (int beat = 0; beat <= static_cast<int>(seconds * 10); ++beat) {
    const double t = 0.1 * beat;
    const double steps = std::floor(t / step_s);
    o.sample(from_s + t,
             {0.5 + steps * n * (compute_s + beyond_s), steps * n * compute_s,
              static_cast<std::uint64_t>(steps * n)},
             tasks(n));
  }
}

// As on the real-CPU testbed's slowest node: half a tile, a step every 60 ms, each costing
// 0.4 ms of computing and 0.7 ms besides.
TEST(StepOverheadTest, ASlowNodeMeasuresItsOverheadAndNotItsJobsStart) {
  StepOverhead overhead;
  EXPECT_EQ(overhead.cpu_seconds(), 0) << "nothing measured yet";
  run(overhead, 40, 1.5, 1, 0.06, 0.0004, 0.0007);
  EXPECT_EQ(overhead.cpu_seconds(), 0) << "the first interval, with the job's start, is skipped";
  StepOverhead later;
  run(later, 40, 4, 1, 0.06, 0.0004, 0.0007);
  EXPECT_NEAR(later.cpu_seconds(), 0.0007, 1e-9);
}

TEST(StepOverheadTest, AnIntervalWhoseTasksChangedIsNotJudged) {
  StepOverhead overhead;
  run(overhead, 0, 3, 4, 0.05, 0.001, 0.002);
  ASSERT_NEAR(overhead.cpu_seconds(), 0.008, 1e-9) << "four tasks' 2 ms a step";
  // A task leaves 0.5 s into an interval, its state serialised: 0.3 s of CPU that is no step's.
  overhead.sample(3.5, {0.5 + 60 * 4 * 0.003 + 0.3, 60 * 4 * 0.001, 250}, tasks(3));
  overhead.sample(4.5, {0.5 + 60 * 4 * 0.003 + 0.3 + 20 * 3 * 0.003, 0.3, 310}, tasks(3));
  EXPECT_NEAR(overhead.cpu_seconds(), 0.008, 1e-9) << "the next interval is a warm-up again";
}

// As on the real testbed's 0.06-core node: a task's 4 MB state captured for a move out while
// the task is still hosted, 0.5 s of CPU in one interval; then a state arriving for a move in.
TEST(StepOverheadTest, AnIntervalWithAMoveUnderWayIsNotJudged) {
  StepOverhead overhead;
  run(overhead, 0, 3, 2, 0.05, 0.001, 0.002);
  ASSERT_NEAR(overhead.cpu_seconds(), 0.004, 1e-9) << "two tasks' 2 ms a step";
  const double cpu = 0.5 + 60 * 2 * 0.003, compute = 60 * 2 * 0.001;
  overhead.sample(3.1, {cpu, compute, 120, true}, tasks(2));  // the move begins
  overhead.sample(4.1, {cpu + 40 * 0.003 + 0.5, compute + 40 * 0.001, 160, true}, tasks(2));
  EXPECT_NEAR(overhead.cpu_seconds(), 0.004, 1e-9) << "the capture's CPU is no step's";
  // The move refused, the task stays: the next quiet interval is judged as before.
  overhead.sample(5.1, {cpu + 80 * 0.003 + 0.5, compute + 80 * 0.001, 200}, tasks(2));
  EXPECT_NEAR(overhead.cpu_seconds(), 0.004, 1e-9) << "began with the move under way";
  overhead.sample(6.1, {cpu + 120 * 0.003 + 0.5, compute + 120 * 0.001, 240}, tasks(2));
  EXPECT_NEAR(overhead.cpu_seconds(), 0.004, 1e-9);
  // Without the flag the same readings would have counted the capture: 0.5 s over 40 steps.
  StepOverhead unflagged;
  run(unflagged, 0, 3, 2, 0.05, 0.001, 0.002);
  unflagged.sample(4.1, {cpu + 40 * 0.003 + 0.5, compute + 40 * 0.001, 160}, tasks(2));
  EXPECT_GT(unflagged.cpu_seconds(), 0.005);
  // Hosting nothing, a state arriving is not what the daemon spends anyway.
  StepOverhead idle;
  idle.sample(0, {0, 0, 0}, {});
  idle.sample(2, {0.04, 0, 0}, {});
  ASSERT_DOUBLE_EQ(idle.idle_cpu_per_second(), 0.02);
  idle.sample(3, {0.54, 0, 0, true}, {});
  idle.sample(4, {0.56, 0, 0}, {});
  EXPECT_DOUBLE_EQ(idle.idle_cpu_per_second(), 0.02);
}

// A checkpoint: its captures and copies (here 0.6 s of CPU) fall in one interval; the hosted
// tasks and the moves are as before.
TEST(StepOverheadTest, AnIntervalWithACheckpointIsNotJudged) {
  StepOverhead overhead;
  run(overhead, 0, 3, 2, 0.05, 0.001, 0.002);
  ASSERT_NEAR(overhead.cpu_seconds(), 0.004, 1e-9);
  const double cpu = 0.5 + 60 * 2 * 0.003, compute = 60 * 2 * 0.001;
  overhead.sample(4, {cpu + 40 * 0.003 + 0.6, compute + 40 * 0.001, 160, false, 8 << 20},
                  tasks(2));
  EXPECT_NEAR(overhead.cpu_seconds(), 0.004, 1e-9);
  overhead.sample(5, {cpu + 80 * 0.003 + 0.6, compute + 80 * 0.001, 200, false, 8 << 20},
                  tasks(2));
  EXPECT_NEAR(overhead.cpu_seconds(), 0.004, 1e-9) << "the next quiet interval: as before";
}

TEST(StepOverheadTest, AnIntervalWithASplitOrMergeOfItsTasksIsNotJudged) {
  StepOverhead overhead;
  run(overhead, 0, 3, 2, 0.05, 0.001, 0.002);
  ASSERT_NEAR(overhead.cpu_seconds(), 0.004, 1e-9);
  const double cpu = 0.5 + 60 * 2 * 0.003, compute = 60 * 2 * 0.001;
  // Two tiles merged in it: 0.6 s of copying beside the steps.
  overhead.sample(4, {cpu + 40 * 0.003 + 0.6, compute + 40 * 0.001, 160, false, 0, 1},
                  tasks(2));
  EXPECT_NEAR(overhead.cpu_seconds(), 0.004, 1e-9);
  overhead.sample(5, {cpu + 80 * 0.003 + 0.6, compute + 80 * 0.001, 200, false, 0, 1},
                  tasks(2));
  EXPECT_NEAR(overhead.cpu_seconds(), 0.004, 1e-9) << "the next quiet interval: as before";
}

TEST(StepOverheadTest, TooFewStepsLetTheIntervalGoOnAndMeasurementsAverage) {
  StepOverhead overhead;
  overhead.sample(0, {0, 0, 0}, tasks(2));
  overhead.sample(1, {0.1, 0, 20}, tasks(2));    // the warm-up interval
  overhead.sample(2.5, {0.2, 0, 30}, tasks(2));  // 5 steps each: not yet
  EXPECT_EQ(overhead.cpu_seconds(), 0);
  overhead.sample(3, {0.4, 0, 40}, tasks(2));  // 10 steps each, 0.3 s beyond: 30 ms a step
  EXPECT_DOUBLE_EQ(overhead.cpu_seconds(), 0.03);
  overhead.sample(4, {0.4, 0, 60}, tasks(2));  // nothing beyond in the next: half of each
  EXPECT_DOUBLE_EQ(overhead.cpu_seconds(), 0.015);
}

TEST(StepOverheadTest, KeptWhileTheNodeHoldsNothing) {
  StepOverhead overhead;
  run(overhead, 0, 3, 1, 0.05, 0.001, 0.002);
  ASSERT_NEAR(overhead.cpu_seconds(), 0.002, 1e-9);
  for (int s = 4; s < 10; ++s) overhead.sample(s, {3.0 + 0.02 * s, 0.06, 60}, {});
  EXPECT_NEAR(overhead.cpu_seconds(), 0.002, 1e-9) << "what work sent here would meet";
  // A worker ended (its CPU leaves the sum): that interval starts again.
  overhead.sample(10, {5, 0, 60}, tasks(1));
  overhead.sample(11, {1, 0, 80}, tasks(1));
  EXPECT_NEAR(overhead.cpu_seconds(), 0.002, 1e-9);
}

// An idle daemon's CPU (heartbeats, samplers, status requests: 20 ms a second) is no step's.
TEST(StepOverheadTest, WhatTheDaemonSpendsHostingNothingIsLeftOut) {
  StepOverhead overhead;
  overhead.sample(0, {0, 0, 0}, {});
  overhead.sample(2, {0.04, 0, 0}, {});
  EXPECT_DOUBLE_EQ(overhead.idle_cpu_per_second(), 0.02);
  EXPECT_EQ(overhead.cpu_seconds(), 0) << "no step yet";
  overhead.sample(2, {0.04, 0, 0}, tasks(1));
  overhead.sample(3, {0.5, 0.2, 10}, tasks(1));  // warm-up: the job's start
  // 1 s with the task: 50 ms of CPU, 10 of them computing, 20 the daemon's anyway; 10 steps.
  overhead.sample(4, {0.55, 0.21, 20}, tasks(1));
  EXPECT_NEAR(overhead.cpu_seconds(), 0.002, 1e-12);
}

// Task order from the host is not the measure of a change.
TEST(StepOverheadTest, TheSameTasksInAnotherOrderAreTheSame) {
  StepOverhead overhead;
  overhead.sample(0, {0, 0, 0}, {{7, 1}, {7, 0}});
  overhead.sample(1, {0.1, 0, 20}, {{7, 0}, {7, 1}});
  overhead.sample(2, {0.5, 0, 40}, {{7, 1}, {7, 0}});
  EXPECT_DOUBLE_EQ(overhead.cpu_seconds(), 0.04);
}

}  // namespace
}  // namespace drift
