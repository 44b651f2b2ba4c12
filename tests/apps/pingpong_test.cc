// pingpong: options (2 tasks, 1 step), the echo protocol's checks, and the distributed checksum
// equal to the serial reference's with timing details, also while migrating.
#include <gtest/gtest.h>

#include "tests/support/app_registry.h"
#include "apps/pingpong/pingpong_app.h"
#include "apps/pingpong/pingpong_params.h"
#include "apps/pingpong/pingpong_payload.h"
#include "apps/pingpong/pingpong_task.h"
#include "tests/apps/recording_context.h"
#include "tests/support/inprocess_runner.h"

namespace drift::pingpong {
namespace {

using test_support::RecordingContext;

const Application& app() { return *builtin_apps().find("pingpong"); }

std::string pingpong_error(JobSpec spec) {
  auto p = parse_params(spec);
  return p ? "ok" : p.error();
}

TEST(PingpongParams, DefaultsAndLimits) {
  JobSpec spec{"pingpong", 0, 0, {}, {}};
  ASSERT_TRUE(fill_and_validate(spec));
  EXPECT_EQ(spec.tasks, 2u);
  EXPECT_EQ(spec.steps, 1u);
  EXPECT_EQ(spec.params.at("rounds"), "1000");
  EXPECT_EQ(spec.params.at("bytes"), "64");
  EXPECT_EQ(parse_params(JobSpec{"pingpong", 2, 1, {{"bytes", "1M"}}, {}})->bytes, 1u << 20);
  EXPECT_EQ(pingpong_error({"pingpong", 3, 0, {}, {}}),
            "pingpong: tasks = 3: expected from 2 to 2");
  EXPECT_EQ(pingpong_error({"pingpong", 0, 5, {}, {}}),
            "pingpong: steps = 5: expected from 1 to 1");
  EXPECT_EQ(pingpong_error({"pingpong", 0, 0, {{"bytes", "4"}}, {}}),
            "pingpong: bytes = '4': expected a byte count (e.g. 4096, 64K, 1M) from 8 to 4M");
  EXPECT_EQ(pingpong_error({"pingpong", 0, 0, {{"rounds", "0"}}, {}}),
            "pingpong: rounds = '0': expected a whole number from 1 to 1000000000");
  EXPECT_EQ(pingpong_error({"pingpong", 0, 0, {{"size", "1"}}, {}}),
            "pingpong: unknown parameter 'size' = '1' (pingpong knows: rounds, bytes)");
}

TEST(PingpongPayload, CarriesTheRound) {
  auto p = make_payload(16);
  EXPECT_EQ(round_of(p), 1u);
  stamp_round(p, 0x0102030405060708ULL);
  EXPECT_EQ(p[0], 8u);
  EXPECT_EQ(round_of(p), 0x0102030405060708ULL);
  EXPECT_EQ(round_of(std::vector<std::uint8_t>(7)), 0u);
}

TEST(PingpongTask, EchoerChecksRounds) {
  const Params params{3, 16};
  PingpongTask echo(params, 1);
  RecordingContext ctx(1);
  echo.start(ctx);
  EXPECT_TRUE(ctx.sends.empty());
  auto payload = make_payload(16);
  echo.receive(ctx, Message{TaskId{7, 0}, kPingTag, payload});
  ASSERT_EQ(ctx.sends.size(), 1u);
  EXPECT_EQ(ctx.sends[0].payload, payload);                     // echoed unchanged
  echo.receive(ctx, Message{TaskId{7, 0}, kPingTag, payload});  // round 1 again
  EXPECT_EQ(ctx.failures.at(0), "round 1 after 1 (lost, duplicated or reordered)");
  PingpongTask other(params, 1);
  RecordingContext ctx2(1);
  other.receive(ctx2, Message{TaskId{7, 0}, kPingTag, std::vector<std::uint8_t>(15)});
  EXPECT_EQ(ctx2.failures.at(0), "payload of 15 bytes, expected 16");
}

TEST(PingpongApp, MatchesSerialWithTiming) {
  for (const char* bytes : {"8", "64", "100000"}) {
    const JobSpec spec{"pingpong", 2, 1, {{"rounds", "50"}, {"bytes", bytes}}, {}};
    auto serial = app().run_serial(spec);
    ASSERT_TRUE(serial) << serial.error();
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      test_support::InProcessStats stats;
      auto out = test_support::run_in_process(app(), spec,
                                              {.seed = seed, .migrate_probability = 0.3}, &stats);
      ASSERT_TRUE(out) << out.error();
      EXPECT_EQ(out->checksum, serial->checksum) << bytes << " seed " << seed;
      EXPECT_EQ(stats.messages, 100u);
      EXPECT_GT(stats.migrations, 0u);
      EXPECT_GT(std::stod(out->details.at("rtt_us")), 0.0);
      EXPECT_GT(std::stod(out->details.at("throughput_MBps")), 0.0);
    }
  }
  auto a = app().run_serial(JobSpec{"pingpong", 2, 1, {{"rounds", "5"}}, {}});
  auto b = app().run_serial(JobSpec{"pingpong", 2, 1, {{"rounds", "6"}}, {}});
  EXPECT_NE(a->checksum, b->checksum);
}

}  // namespace
}  // namespace drift::pingpong
