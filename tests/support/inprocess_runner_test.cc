#include "tests/support/inprocess_runner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include <drift/context.h>
#include <drift/archives.h>

namespace drift::test_support {
namespace {

// A toy SPMD app: every step each task sends kBurst numbered messages to the next task on a
// ring and contributes {index, index, index}; it checks channel order and the combined values,
// and finishes with the number of messages it received. The params choose misbehaviours.
constexpr int kBurst = 3;

class RingTask final : public SerializableTask<RingTask> {
 public:
  RingTask(const JobSpec& spec, std::uint32_t index) : spec_(spec), index_(index) {}

  void start(Context& ctx) override {
    if (started_) return;
    started_ = true;
    if (mode() == "throw") throw std::runtime_error("boom");
    if (mode() == "bad_send") ctx.send(TaskId{ctx.self().job, 999}, 1, {});
    begin_step(ctx);
  }
  void receive(Context& ctx, Message&& msg) override {
    std::uint64_t seq = 0;
    ASSERT_TRUE(decode_portable(msg.payload, seq));
    ASSERT_EQ(seq, next_seq_) << "channel order broken";
    ++next_seq_;
    ++received_;
    maybe_finish(ctx);
  }
  void reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) override {
    const double n = spec_.tasks;
    EXPECT_EQ(step, step_);
    EXPECT_EQ(values, (std::vector<double>{n * (n - 1) / 2, n - 1, 0}));
    if (++step_ == spec_.steps) return maybe_finish(ctx);
    begin_step(ctx);
  }
  double load() const override { return 1; }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(step_, next_seq_, sent_);
    if (mode() != "lossy_state") ar(received_);  // lossy_state forgets a field
    wire_bool(ar, started_);
  }

 private:
  std::string mode() const {
    auto it = spec_.params.find("mode");
    return it == spec_.params.end() ? "" : it->second;
  }
  // Done after the last reduction and the last message (the lossy mode may never get there).
  void maybe_finish(Context& ctx) {
    if (step_ == spec_.steps && next_seq_ == spec_.steps * kBurst) {
      ctx.finish(encode_portable(received_));
    }
  }
  void begin_step(Context& ctx) {
    const TaskId next{ctx.self().job, (index_ + 1) % spec_.tasks};
    for (int k = 0; k < kBurst; ++k) ctx.send(next, 7, encode_portable(sent_++));
    if (mode() == "hang" && index_ == 0) return;
    const double i = index_;
    ctx.contribute(step_, {i, i, i});
    if (mode() == "twice") ctx.contribute(step_, {i, i, i});
  }

  JobSpec spec_;
  std::uint32_t index_;
  bool started_ = false;
  std::uint64_t step_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t sent_ = 0;
  std::uint64_t received_ = 0;
};

class RingApp final : public Application {
 public:
  std::string name() const override { return "ring"; }
  std::vector<std::string> option_help() const override { return {}; }
  Status validate(JobSpec& spec) const override {
    if (spec.tasks == 0) spec.tasks = 3;
    if (spec.steps == 0) spec.steps = 5;
    return Status::ok();
  }
  std::unique_ptr<Task> create_task(const JobSpec& spec, std::uint32_t index) const override {
    return std::make_unique<RingTask>(spec, index);
  }
  std::vector<ReduceOp> reduction_ops() const override {
    return {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin};
  }
  Result<JobOutcome> combine(const JobSpec&,
                             const std::vector<std::vector<std::uint8_t>>& results) const override {
    std::uint64_t total = 0;
    for (const auto& r : results) {
      std::uint64_t v = 0;
      if (!decode_portable(r, v)) return Status::error("bad result");
      total += v;
    }
    return JobOutcome{std::to_string(total), {}};
  }
  Result<JobOutcome> run_serial(const JobSpec& spec) const override {
    return JobOutcome{std::to_string(spec.tasks * spec.steps * kBurst), {}};
  }
};

JobSpec ring_spec(std::uint32_t tasks, std::uint64_t steps, std::string mode = "") {
  JobSpec spec{"ring", tasks, steps, {}, {}};
  if (!mode.empty()) spec.params["mode"] = mode;
  return spec;
}

TEST(InProcessRunner, RunsToCompletionForManySeeds) {
  RingApp app;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    InProcessStats stats;
    auto out = run_in_process(app, ring_spec(5, 4), {.seed = seed}, &stats);
    ASSERT_TRUE(out) << out.error();
    EXPECT_EQ(out->checksum, "60");
    EXPECT_EQ(stats.messages, 60u);
    EXPECT_EQ(stats.reductions, 4u);
    EXPECT_EQ(stats.handlers, 5u + 60u + 20u);
  }
}

TEST(InProcessRunner, MigratesWithoutLosingState) {
  RingApp app;
  InProcessStats stats;
  auto out = run_in_process(app, ring_spec(4, 6), {.seed = 3, .migrate_probability = 1.0}, &stats);
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->checksum, "72");
  EXPECT_GT(stats.migrations, 50u);
}

TEST(InProcessRunner, DeliversBeforeStartWhenAsked) {
  RingApp app;
  auto out = run_in_process(app, ring_spec(6, 3), {.seed = 9, .deliver_before_start = true});
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->checksum, "54");
}

TEST(InProcessRunner, ReportsMisbehaviour) {
  RingApp app;
  const auto error_of = [&](const std::string& mode, InProcessOptions o = {}) {
    auto out = run_in_process(app, ring_spec(3, 2, mode), o);
    return out ? std::string("ok") : out.error();
  };
  EXPECT_NE(error_of("hang").find("deadlock"), std::string::npos);
  EXPECT_NE(error_of("twice").find("contributed twice to step 0"), std::string::npos);
  EXPECT_NE(error_of("throw").find("threw: boom"), std::string::npos);
  EXPECT_NE(error_of("bad_send").find("unknown task"), std::string::npos);
}

TEST(InProcessRunner, MigrationExposesStateMissingFromSerialize) {
  RingApp app;
  auto whole = run_in_process(app, ring_spec(3, 4), {.seed = 2});
  auto lossy =
      run_in_process(app, ring_spec(3, 4, "lossy_state"), {.seed = 2, .migrate_probability = 0.5});
  ASSERT_TRUE(whole && lossy) << (whole ? lossy.error() : whole.error());
  EXPECT_EQ(whole->checksum, "36");
  EXPECT_NE(lossy->checksum, "36");
}

TEST(InProcessRunner, DeterministicForOneSeed) {
  RingApp app;
  InProcessStats a, b;
  ASSERT_TRUE(run_in_process(app, ring_spec(4, 3), {.seed = 5, .migrate_probability = 0.3}, &a));
  ASSERT_TRUE(run_in_process(app, ring_spec(4, 3), {.seed = 5, .migrate_probability = 0.3}, &b));
  EXPECT_EQ(a.migrations, b.migrations);
  EXPECT_EQ(a.state_bytes, b.state_bytes);
}

TEST(CombineContributions, TaskIndexOrder) {
  // (1e16 + 1) - 1e16 == 0 in doubles, while 1e16 + (1 - 1e16) would not be: order is visible.
  auto sum = combine_contributions({ReduceOp::kSum}, {{1e16}, {1.0}, {-1e16}});
  ASSERT_TRUE(sum);
  EXPECT_EQ((*sum)[0], 0.0);
  auto mm = combine_contributions({ReduceOp::kMax, ReduceOp::kMin}, {{1, 5}, {3, -2}, {2, 0}});
  ASSERT_TRUE(mm);
  EXPECT_EQ(*mm, (std::vector<double>{3, -2}));
  EXPECT_FALSE(combine_contributions({ReduceOp::kSum}, {{1}, {1, 2}}));
}

}  // namespace
}  // namespace drift::test_support
