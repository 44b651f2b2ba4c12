// fault_scenario_parser: sections, keys and their errors (FILE:LINE and the bad value); every
// scenario shipped in conf/faults/ parses.
#include "ctl/fault_scenario_parser.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace drift::ctl {
namespace {

const char* const kGood = R"(# Kill a worker
[cluster]
nodes = 4
set = balance.strategy=none   # every daemon
set = 3:emulate.speed=2
cpu_hogs = 1

[job]
app = heat2d
size = 128x128
tasks = 8
steps = 50
submit = 2
timeout = 20s

[expect]
faulted_declared_dead = yes
max_detection = 1500ms
max_false_suspicions = 2

[faults]
at step 10 kill worker
at 3s restart 3
)";

std::string scenario_error(const std::string& text) {
  auto s = parse_fault_scenario(text, "conf/faults/x.scn");
  return s ? "(parsed)" : s.error();
}

TEST(FaultScenarioParserTest, ReadsEverySection) {
  auto s = parse_fault_scenario(kGood, "conf/faults/x.scn");
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->title, "Kill a worker");
  EXPECT_EQ(s->nodes, 4);
  EXPECT_FALSE(s->netns);
  EXPECT_EQ(s->all_args, (std::vector<std::string>{"--balance.strategy=none"}));
  EXPECT_EQ(s->node_args.at(3), (std::vector<std::string>{"--emulate.speed=2"}));
  EXPECT_EQ(s->cpu_hogs, 1);
  EXPECT_EQ(s->cpu_hogs_nice, 0);
  ASSERT_EQ(s->jobs.size(), 1u);
  EXPECT_EQ(s->jobs[0].app, "heat2d");
  EXPECT_EQ(s->jobs[0].params.at("size"), "128x128");
  EXPECT_EQ(s->jobs[0].tasks, 8u);
  EXPECT_EQ(s->jobs[0].steps, 50u);
  EXPECT_EQ(s->jobs[0].submit_to, 2);
  EXPECT_DOUBLE_EQ(s->jobs[0].timeout_s, 20);
  EXPECT_EQ(s->expect.faulted_declared_dead, true);
  EXPECT_DOUBLE_EQ(*s->expect.max_detection_s, 1.5);
  EXPECT_EQ(*s->expect.max_false_suspicions, 2);
  ASSERT_EQ(s->faults.size(), 2u);
  EXPECT_EQ(s->faults[0].origin, "conf/faults/x.scn:22");
  EXPECT_EQ(s->faults[1].action.kind, FaultKind::kRestart);
  // The scenarios shipped in conf/faults get conf/local.conf (a relative scenario path is the
  // test's folder's, which may have none).
  auto shipped = parse_fault_scenario(kGood, std::string(DRIFT_SOURCE_DIR) + "/conf/faults/x.scn");
  ASSERT_TRUE(shipped) << shipped.error();
  EXPECT_EQ(shipped->base_config, std::string(DRIFT_SOURCE_DIR) + "/conf/local.conf");
}

TEST(FaultScenarioParserTest, AStepNoJobReachesIsAnError) {
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n[job]\napp = heat2d\ntasks = 2\nsteps = 60\n"
                           "[faults]\nat step 60 kill 2\nat step 5000 stop 1 for 1s\n"),
            "conf/faults/x.scn:9: 'at step 5000 stop 1 for 1s': no job has that many steps (the "
            "most 60)");
}

// Beside a folder with no local.conf, a scenario's daemons get driftd's defaults.
TEST(FaultScenarioParserTest, NoBaseConfigWhereThereIsNoLocalConf) {
  auto s = parse_fault_scenario("[cluster]\nnodes = 2\n[job]\napp = heat2d\ntasks = 2\n",
                                "/nonexistent/dir/x.scn");
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->base_config, "");
}

TEST(FaultScenarioParserTest, ReadsCpuQuotas) {
  auto s = parse_fault_scenario(
      "[cluster]\nnodes = 3\ncpu = 0.5\ncpu = 2:0.1\ncpu_period = 20ms\n[job]\napp = heat2d\n"
      "tasks = 2\n",
      "f.scn");
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->cpu_cores, (std::map<int, double>{{1, 0.5}, {2, 0.1}, {3, 0.5}}));
  EXPECT_EQ(s->cpu_period_us, 20000);
}

TEST(FaultScenarioParserTest, PartitionTurnsOnNamespaces) {
  auto s = parse_fault_scenario(
      "[cluster]\nnodes = 3\n[job]\napp = heat2d\ntasks = 2\n[faults]\nat 1s partition 1 | rest\n",
      "f.scn");
  ASSERT_TRUE(s) << s.error();
  EXPECT_TRUE(s->netns);
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 3\nnetwork = loopback\n[job]\napp = heat2d\ntasks = "
                           "2\n[faults]\nat 1s partition 1 | rest\n"),
            "conf/faults/x.scn: network = loopback: partition needs network = netns");
}

TEST(FaultScenarioParserTest, CpuHogsMayRunAtANiceValue) {
  auto s = parse_fault_scenario("[cluster]\nnodes = 2\ncpu_hogs = 2\ncpu_hogs_nice = 19\n"
                                "[job]\napp = heat2d\ntasks = 2\nsteps = 5\n",
                                "conf/faults/x.scn");
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->cpu_hogs, 2);
  EXPECT_EQ(s->cpu_hogs_nice, 19);
}

TEST(FaultScenarioParserTest, ErrorsNameFileLineAndValue) {
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 0\n"),
            "conf/faults/x.scn:2: nodes = '0': expected a whole number 1..64");
  EXPECT_EQ(scenario_error("[cluster]\nnodez = 3\n"),
            "conf/faults/x.scn:2: unknown key 'nodez' in [cluster] (nodes, network, base_config, "
            "set, cpu_hogs, cpu_hogs_nice, duration, cpu, cpu_period)");
  EXPECT_EQ(scenario_error("[cluster]\ncpu_hogs_nice = 20\n"),
            "conf/faults/x.scn:2: cpu_hogs_nice = '20': expected a whole number 0..19");
  EXPECT_EQ(scenario_error("[cluster]\ncpu = 0.2\n"),
            "conf/faults/x.scn:2: cpu = '0.2': set nodes first");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\ncpu = 3:0.2\n"),
            "conf/faults/x.scn:3: cpu = '3': expected a whole number 1..2");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\ncpu = 0\n"),
            "conf/faults/x.scn:3: cpu = '0': expected CORES or K:CORES, cores from 0.01 to 1024");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\ncpu_period = 5s\n"),
            "conf/faults/x.scn:3: cpu_period = '5s': must be from 1ms to 1s");
  EXPECT_EQ(scenario_error("[clutser]\n"),
            "conf/faults/x.scn:1: unknown section [clutser] (expected cluster, job, expect or "
            "faults)");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n[faults]\nat 1s kill 3\n"),
            "conf/faults/x.scn:4: node '3': the cluster has nodes 1..2");
  EXPECT_EQ(scenario_error("[faults]\nat 1s kill 1\n"),
            "conf/faults/x.scn:1: [faults] must come after [cluster] nodes = N (node numbers are "
            "checked)");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n[expect]\nmax_recoveries = none\n"),
            "conf/faults/x.scn:4: max_recoveries = 'none': expected a whole number 0..1048576");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n[expect]\nmax_steps_recomputed = -1\n"),
            "conf/faults/x.scn:4: max_steps_recomputed = '-1': expected a whole number "
            "0..1099511627776");
  EXPECT_TRUE(scenario_error("[cluster]\nnodes = 2\n[job]\napp = heat3d\ntasks = 2\n")
                  .starts_with("conf/faults/x.scn:3: [job] app = 'heat3d': no application "
                               "'heat3d' in the apps path ("));
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n[job]\napp = heat2d\ntasks = 2\ncolour = red\n"),
            "conf/faults/x.scn:6: colour = 'red': heat2d has no option --colour");
  EXPECT_TRUE(scenario_error("[cluster]\nnodes = 2\n[job]\napp = heat2d\ntasks = 2\nsize = 1x5\n")
                  .starts_with("conf/faults/x.scn:3: [job] heat2d: "));
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n[job]\napp = heat2d\n"),
            "conf/faults/x.scn:3: [job] tasks = N is required");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n[expect]\nfaulted_declared_dead = maybe\n"),
            "conf/faults/x.scn:4: faulted_declared_dead = 'maybe': expected yes or no");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n[expect]\nmax_stall = 200\n"),
            "conf/faults/x.scn:4: max_stall = '200': duration '200' needs a unit: ms, s or m "
            "(e.g. 2.5s)");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n[expect]\nmax_late_heartbeats = 150%\n"),
            "conf/faults/x.scn:4: max_late_heartbeats = '150%': expected a percentage 0%..100%");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n[expect]\nmax_late_heartbeats = lots\n"),
            "conf/faults/x.scn:4: max_late_heartbeats = 'lots': expected a percentage 0%..100%");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\nset = 3:a.b=1\n"),
            "conf/faults/x.scn:3: set = '3:a.b=1': the cluster has 2 nodes");
  EXPECT_EQ(scenario_error("[cluster]\nnodes = 2\n"),
            "conf/faults/x.scn: a [job] section is required");
  EXPECT_EQ(scenario_error("nodes = 2\n"),
            "conf/faults/x.scn:1: expected 'key = value' in a section, got 'nodes = 2'");
}

TEST(FaultScenarioParserTest, RecoveriesCanBeBounded) {
  auto s = parse_fault_scenario(
      "[cluster]\nnodes = 2\n[job]\napp = ballast\ntasks = 1\n[expect]\nmax_recoveries = 0\n",
      "conf/faults/x.scn");
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(s->expect.max_recoveries);
  EXPECT_EQ(*s->expect.max_recoveries, 0u);
}

TEST(FaultScenarioParserTest, ShippedScenariosParse) {
  const std::filesystem::path dir = std::filesystem::path(DRIFT_SOURCE_DIR) / "conf/faults";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".scn") continue;
    ++count;
    auto s = load_fault_scenario(entry.path().string());
    EXPECT_TRUE(s) << s.status().message();
    if (s) {
      EXPECT_FALSE(s->title.empty()) << entry.path();
    }
  }
  EXPECT_GE(count, 8);
}

}  // namespace
}  // namespace drift::ctl
