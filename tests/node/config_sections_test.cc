// driftd's config, section by section: emulate and balance, checkpoints on disk, test hooks, the
// owner policy, workers, and node.cpu — read, defaulted, and refused with errors that name them.
#include <gtest/gtest.h>

#include "node/config/config.h"
#include "tests/node/config_test_fixture.h"

namespace drift {
namespace {

using namespace testing_config;
using std::chrono::milliseconds;

TEST_F(ConfigTest, ReadsEmulateAndBalanceKeys) {
  const std::string text = std::string(kMinimal) +
                           "[emulate]\n"
                           "speed = 2\n"
                           "unit_rate = 1000\n"
                           "load = 10:5:2\n"
                           "load = 30:0:0\n"
                           "[balance]\n"
                           "strategy = hbm\n"
                           "capacity = static\n"
                           "sensing = once\n"
                           "period_ms = 250\n"
                           "eff_min = 0.8\n"
                           "hysteresis = 0.1\n"
                           "capacity_ewma = 1\n"
                           "locality_weight = 0\n"
                           "max_moves = 3\n";
  const NodeConfig c = config_of(parse_file(text));
  EXPECT_EQ(c.emulate.speed, 2);
  EXPECT_EQ(c.emulate.unit_rate, 1000);
  ASSERT_EQ(c.emulate.load.size(), 2u);
  EXPECT_EQ(c.emulate.load[0], (LoadRamp{10, 5, 2}));
  EXPECT_EQ(c.emulate.load[1], (LoadRamp{30, 0, 0}));
  EXPECT_EQ(c.balance.strategy, BalanceStrategy::kHbm);
  EXPECT_EQ(c.balance.capacity, CapacityMode::kStatic);
  EXPECT_EQ(c.balance.sensing, Sensing::kOnce);
  EXPECT_EQ(c.balance.period, milliseconds(250));
  EXPECT_EQ(c.balance.eff_min, 0.8);
  EXPECT_EQ(c.balance.hysteresis, 0.1);
  EXPECT_EQ(c.balance.capacity_ewma, 1);
  EXPECT_EQ(c.balance.locality_weight, 0);
  EXPECT_EQ(c.balance.max_moves, 3u);
  EXPECT_EQ(c.where("emulate.load"), at(8));
}

TEST_F(ConfigTest, EmulateAndBalanceDefaults) {
  const NodeConfig c = config_of(parse_file(kMinimal));
  EXPECT_EQ(c.emulate.speed, 0);
  EXPECT_EQ(c.emulate.unit_rate, 100000);
  EXPECT_TRUE(c.emulate.load.empty());
  EXPECT_EQ(c.balance.strategy, BalanceStrategy::kDiffusion);
  EXPECT_EQ(c.balance.capacity, CapacityMode::kDynamic);
  EXPECT_EQ(c.balance.sensing, Sensing::kEvery);
  EXPECT_EQ(c.balance.period, milliseconds(1000));
  EXPECT_EQ(c.balance.eff_min, 0.9);
  EXPECT_EQ(c.balance.hysteresis, 0.05);
  EXPECT_EQ(c.balance.capacity_ewma, 0.5);
  EXPECT_EQ(c.balance.locality_weight, 0.1);
  EXPECT_EQ(c.balance.max_moves, 64u);
}

TEST_F(ConfigTest, BadLoadRampNamesItsOwnLineAndField) {
  const std::string text = std::string(kMinimal) + "[emulate]\nload = 1:2:3\nload = 30:x:1\n";
  error_of(parse_file(text), {"emulate.load = '30:x:1'", at(7), "ramp_s 'x' is not a number"});
  error_of(parse_file(kMinimal, {"--emulate.load=5:1:1", "--emulate.load=1:2"}),
           {"emulate.load = '1:2' (command line)", "has 2 fields", "start_s:ramp_s:level"});
  const NodeConfig c = config_of(parse_file(text, {"--emulate.load=5:1:1"}));
  ASSERT_EQ(c.emulate.load.size(), 1u);  // the command line replaces the file's entries
  EXPECT_EQ(c.emulate.load[0], (LoadRamp{5, 1, 1}));
}

TEST_F(ConfigTest, BadEmulateAndBalanceValues) {
  error_of(parse_file(kMinimal, {"--emulate.speed=-1"}),
           {"emulate.speed = '-1' (command line)", ">= 0"});
  error_of(parse_file(kMinimal, {"--emulate.unit_rate=0"}), {"emulate.unit_rate = '0'", "> 0"});
  error_of(parse_file(std::string(kMinimal) + "[balance]\nstrategy = fast\n"),
           {"balance.strategy = 'fast'", at(6), "none, homogeneous, diffusion, gde, hbm, rid"});
  error_of(parse_file(kMinimal, {"--balance.capacity=measured"}), {"static, dynamic"});
  error_of(parse_file(kMinimal, {"--balance.sensing=often"}), {"every, once"});
  error_of(parse_file(std::string(kMinimal) + "[balance]\neff_min = 1.5\n"),
           {"balance.eff_min = '1.5'", at(6), "must be <= 1"});
  error_of(parse_file(kMinimal, {"--balance.eff_min=0"}), {"balance.eff_min", "> 0"});
  error_of(parse_file(kMinimal, {"--balance.hysteresis=1"}), {"balance.hysteresis = '1'", "< 1"});
  error_of(parse_file(kMinimal, {"--balance.hysteresis=-0.1"}), {"balance.hysteresis", ">= 0"});
  error_of(parse_file(kMinimal, {"--balance.capacity_ewma=1.01"}),
           {"balance.capacity_ewma = '1.01'", "<= 1"});
  error_of(parse_file(kMinimal, {"--balance.period_ms=0"}), {"balance.period_ms", "1..600000"});
  error_of(parse_file(kMinimal, {"--balance.max_moves=0"}), {"balance.max_moves"});
  error_of(parse_file(kMinimal, {"--balance.locality_weight=-0.5"}), {">= 0"});
  error_of(parse_file(std::string(kMinimal) + "[balance]\nsensing = once\nsensing = every\n"),
           {at(7), "already set on line 6"});
}

TEST_F(ConfigTest, CheckpointsOnDiskAreOffByDefaultAndReadFromTheFile) {
  const NodeConfig d = config_of(parse_file(kMinimal));
  EXPECT_FALSE(d.checkpoint.disk);
  EXPECT_EQ(d.checkpoint.disk_wait, milliseconds(60000));
  const NodeConfig c = config_of(
      parse_file(std::string(kMinimal) + "[checkpoint]\ndisk = true\ndisk_wait_ms = 5000\n"));
  EXPECT_TRUE(c.checkpoint.disk);
  EXPECT_EQ(c.checkpoint.disk_wait, milliseconds(5000));
  error_of(parse_file(std::string(kMinimal) + "[checkpoint]\ndisk = yes\n"),
           {"checkpoint.disk = 'yes'", at(6), "true, false"});
  error_of(parse_file(kMinimal, {"--checkpoint.disk_wait_ms=0"}),
           {"checkpoint.disk_wait_ms = '0' (command line)"});
}

TEST_F(ConfigTest, TestHooksAreOffByDefaultAndOnWithAnyFrameFault) {
  const NodeConfig d = config_of(parse_file(kMinimal));
  EXPECT_FALSE(d.test.hooks);
  EXPECT_EQ(d.test.drop_frames, 0);
  const NodeConfig c = config_of(
      parse_file(std::string(kMinimal) + "[test]\ndrop_frames = 0.01\ndelay_frames_ms = 5\n"));
  EXPECT_TRUE(c.test.hooks);
  EXPECT_DOUBLE_EQ(c.test.drop_frames, 0.01);
  EXPECT_DOUBLE_EQ(c.test.delay_frames_ms, 5);
  EXPECT_TRUE(config_of(parse_file(kMinimal, {"--test.hooks=true"})).test.hooks);
  error_of(parse_file(kMinimal, {"--test.duplicate_frames=2"}),
           {"test.duplicate_frames = '2' (command line)", "must be <= 1"});
  error_of(parse_file(kMinimal, {"--test.hooks=yes"}), {"test.hooks = 'yes'", "true, false"});
}

TEST_F(ConfigTest, ReadsOwnerKeys) {
  const std::string text = std::string(kMinimal) +
                           "[owner]\n"
                           "policy = immediate\n"
                           "start_idle = 120.5\n"
                           "start_load = 0.2\n"
                           "suspend_idle = 5\n"
                           "suspend_load = 0.8\n"
                           "suspend_load_time = 10\n"
                           "continue_idle = 30\n"
                           "max_suspend = 90\n"
                           "vacate_deadline = 20\n"
                           "poll_ms = 250\n"
                           "sessions = false\n"
                           "input_devices = false\n"
                           "load = false\n"
                           "activity_file = here/active\n";
  const NodeConfig c = config_of(parse_file(text));
  const OwnerPolicyParams& p = c.owner.policy;
  EXPECT_EQ(p.kind, OwnerPolicyKind::kImmediate);
  EXPECT_EQ(p.start_idle_s, 120.5);
  EXPECT_EQ(p.start_load, 0.2);
  EXPECT_EQ(p.suspend_idle_s, 5);
  EXPECT_EQ(p.suspend_load, 0.8);
  EXPECT_EQ(p.suspend_load_s, 10);
  EXPECT_EQ(p.continue_idle_s, 30);
  EXPECT_EQ(p.max_suspend_s, 90);
  EXPECT_EQ(c.owner.vacate_deadline_s, 20);
  EXPECT_EQ(c.owner.poll, milliseconds(250));
  EXPECT_FALSE(c.owner.inputs.sessions);
  EXPECT_FALSE(c.owner.inputs.input_devices);
  EXPECT_FALSE(c.owner.inputs.load);
  EXPECT_EQ(c.owner.inputs.activity_file, path("here/active"));  // relative to the file
}

TEST_F(ConfigTest, OwnerDefaultsAreHTCondorsDesktopPolicy) {
  const NodeConfig c = config_of(parse_file(kMinimal));
  const OwnerPolicyParams& p = c.owner.policy;
  EXPECT_EQ(p.kind, OwnerPolicyKind::kDesktop);
  EXPECT_EQ(p.start_idle_s, 900);
  EXPECT_EQ(p.start_load, 0.3);
  EXPECT_EQ(p.suspend_idle_s, 60);
  EXPECT_EQ(p.suspend_load, 0.5);
  EXPECT_EQ(p.max_suspend_s, 600);
  EXPECT_TRUE(c.owner.inputs.sessions);
  EXPECT_TRUE(c.owner.inputs.input_devices);
  EXPECT_TRUE(c.owner.inputs.load);
  EXPECT_TRUE(c.owner.inputs.activity_file.empty());
}

TEST_F(ConfigTest, BadOwnerValues) {
  error_of(parse_file(std::string(kMinimal) + "[owner]\npolicy = sometimes\n"),
           {"owner.policy = 'sometimes'", at(6), "desktop, immediate, never"});
  error_of(parse_file(kMinimal, {"--owner.max_suspend=-1"}),
           {"owner.max_suspend = '-1' (command line)", ">= 0"});
  error_of(parse_file(kMinimal, {"--owner.sessions=yes"}), {"owner.sessions = 'yes'", "true"});
  error_of(parse_file(kMinimal, {"--owner.poll_ms=1"}), {"owner.poll_ms = '1'", "10..60000"});
  error_of(parse_file(kMinimal, {"--owner.vacate_deadline=0"}), {"owner.vacate_deadline", "> 0"});
  error_of(parse_file(kMinimal, {"--owner.suspend_load=0.2"}),
           {"owner.start_load = 0.3 (default) must be below owner.suspend_load = 0.2 (command "
            "line)"});
  error_of(parse_file(std::string(kMinimal) + "[owner]\nstart_idle = 30\n"),
           {"owner.start_idle = 30 (" + at(6) + ") must be >= owner.suspend_idle = 60 (default)"});
  error_of(parse_file(kMinimal, {"--owner.continue_idle=1", "--owner.suspend_idle=2"}),
           {"owner.continue_idle = 1", ">= owner.suspend_idle = 2"});
}

TEST_F(ConfigTest, WorkerFlagsAreReadAndChecked) {
  const NodeConfig d = config_of(parse_file(kMinimal));
  EXPECT_TRUE(d.worker.huge_pages);
  EXPECT_TRUE(d.worker.sched_idle);
  const NodeConfig c =
      config_of(parse_file(std::string(kMinimal) + "[worker]\nhuge_pages = false\n",
                           {"--worker.sched_idle=false"}));
  EXPECT_FALSE(c.worker.huge_pages);
  EXPECT_FALSE(c.worker.sched_idle);
  error_of(parse_file(kMinimal, {"--worker.huge_pages=yes"}),
           {"worker.huge_pages = 'yes' (command line)", "must be one of true, false"});
  error_of(parse_file(std::string(kMinimal) + "[worker]\nsched_idle = 1\n"),
           {"worker.sched_idle = '1'", at(6), "must be one of true, false"});
}

TEST_F(ConfigTest, WorkerJobUidsAreAutoOffOrARange) {
  EXPECT_EQ(config_of(parse_file(kMinimal)).worker.job_uids, "auto");
  EXPECT_EQ(config_of(parse_file(kMinimal, {"--worker.job_uids=off"})).worker.job_uids, "off");
  EXPECT_EQ(config_of(parse_file(kMinimal, {"--worker.job_uids=3000-3999"})).worker.job_uids,
            "3000-3999");
  error_of(parse_file(kMinimal, {"--worker.job_uids=10-5"}),
           {"worker.job_uids = '10-5' (command line)", "FIRST is above LAST"});
  error_of(parse_file(std::string(kMinimal) + "[worker]\njob_uids = 0-9\n"),
           {"worker.job_uids = '0-9'", at(6), "expected auto, off or FIRST-LAST"});
}

TEST_F(ConfigTest, TheStepFloorIsOnByDefaultAndABoolean) {
  EXPECT_TRUE(config_of(parse_file(kMinimal)).balance.step_floor);
  EXPECT_FALSE(config_of(parse_file(std::string(kMinimal) + "[balance]\nstep_floor = false\n"))
                   .balance.step_floor);
  error_of(parse_file(kMinimal, {"--balance.step_floor=maybe"}),
           {"balance.step_floor = 'maybe' (command line)", "must be one of true, false"});
}

TEST_F(ConfigTest, NodeCpuIsAutoAnyOrACpu) {
  EXPECT_EQ(config_of(parse_file(kMinimal)).cpu, "auto");
  EXPECT_EQ(config_of(parse_file(kMinimal, {"--node.cpu=any"})).cpu, "any");
  const char* const fixed = "[node]\nid = 1\ncpu = 1\n[cluster]\nsecret_file = secret\n";
  EXPECT_EQ(config_of(parse_file(fixed)).cpu, "1");
  error_of(parse_file(kMinimal, {"--node.cpu=fast"}),
           {"node.cpu = 'fast' (command line)", "must be auto, any or a CPU's number"});
  error_of(parse_file("[node]\nid = 1\ncpu = -1\n[cluster]\nsecret_file = secret\n"),
           {"node.cpu = '-1'", at(3), "must be auto, any or a CPU's number"});
}

}  // namespace
}  // namespace drift
