// One particles task fed crafted messages: it sends migrants to both neighbours every step,
// waits for both neighbours' migrants, buffers the next step's, reports one work unit per
// particle, checks the reductions, round-trips its state mid-step, and refuses bad messages.
#include "apps/particles/particles_task.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "apps/particles/migrant_message.h"
#include "apps/particles/tally.h"
#include "tests/apps/recording_context.h"
#include "tests/support/task_state.h"

namespace drift::particles {
namespace {

using test_support::RecordingContext;
using test_support::restore_task_state;
using test_support::save_task_state;

const Params kParticlesParams{12, 600, 1, 0, 3, 3};  // task 1 owns cells [4, 8)
const std::vector<double> kAllThere{600, 1.0, 0.0};

Message migrants(std::uint32_t from, std::uint64_t step, std::vector<Particle> particles = {}) {
  return Message{TaskId{RecordingContext::kJob, from}, kMigrantsTag,
                 encode_portable(MigrantMessage{step, std::move(particles)})};
}

MigrantMessage sent(const RecordingContext& ctx, std::size_t i) {
  MigrantMessage m;
  EXPECT_TRUE(decode_portable(ctx.sends.at(i).payload, m));
  return m;
}

struct Middle {
  ParticlesTask task{kParticlesParams, 1};
  RecordingContext ctx{1};
  Middle() { task.start(ctx); }
  std::string failure() const { return ctx.failures.empty() ? "" : ctx.failures.front(); }
};

TEST(ParticlesTask, StartSendsMigrantsToBothNeighboursOnce) {
  Middle m;
  ASSERT_EQ(m.ctx.sends.size(), 2u);
  EXPECT_EQ(m.ctx.sends[0].from.index, 0u);
  EXPECT_EQ(m.ctx.sends[1].from.index, 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(m.ctx.sends[i].tag, kMigrantsTag);
    EXPECT_EQ(sent(m.ctx, i).step, 0u);
  }
  for (const Particle& p : sent(m.ctx, 0).particles) EXPECT_EQ(cell_of(p.x, 12), 3u);
  for (const Particle& p : sent(m.ctx, 1).particles) EXPECT_EQ(cell_of(p.x, 12), 8u);
  EXPECT_GT(m.ctx.work, 100.0);  // one unit per particle in cells 4..7: about 200
  EXPECT_LT(m.ctx.work, 300.0);
  EXPECT_EQ(m.task.load() + sent(m.ctx, 0).particles.size() + sent(m.ctx, 1).particles.size(),
            m.ctx.work);
  m.task.start(m.ctx);  // as after a restore: nothing new
  EXPECT_EQ(m.ctx.sends.size(), 2u);
  EXPECT_TRUE(m.ctx.contributions.empty());
}

TEST(ParticlesTask, EdgeTaskHasOneNeighbour) {
  ParticlesTask task(kParticlesParams, 0);
  RecordingContext ctx(0);
  task.start(ctx);
  ASSERT_EQ(ctx.sends.size(), 1u);
  EXPECT_EQ(ctx.sends[0].from.index, 1u);
  task.receive(ctx, migrants(1, 0));
  EXPECT_EQ(ctx.contributions.size(), 1u);
}

TEST(ParticlesTask, WaitsForBothNeighboursThenContributes) {
  Middle m;
  const double before = m.task.load();
  m.task.receive(m.ctx, migrants(0, 0, {Particle{9999, 4.0, 0.1, 0, 0}}));
  EXPECT_TRUE(m.ctx.contributions.empty());
  m.task.receive(m.ctx, migrants(2, 0));  // empty, but it says step 0 is over for task 2
  ASSERT_EQ(m.ctx.contributions.size(), 1u);
  EXPECT_EQ(m.ctx.contributions[0].first, 0u);
  EXPECT_EQ(m.ctx.contributions[0].second.size(), kReducedValues);
  EXPECT_EQ(m.ctx.contributions[0].second[0], before + 1);
  EXPECT_EQ(m.task.load(), before + 1);
}

TEST(ParticlesTask, BuffersNextStepUntilReduced) {
  Middle m;
  m.task.receive(m.ctx, migrants(0, 0));
  m.task.receive(m.ctx, migrants(2, 0));
  m.task.receive(m.ctx, migrants(0, 1));  // task 0 is already at step 1
  m.task.receive(m.ctx, migrants(2, 1));
  EXPECT_EQ(m.ctx.contributions.size(), 1u);
  m.task.reduced(m.ctx, 0, kAllThere);
  ASSERT_EQ(m.ctx.contributions.size(), 2u);  // step 1 ended at once from the buffer
  EXPECT_EQ(m.ctx.sends.size(), 4u);
  EXPECT_EQ(sent(m.ctx, 2).step, 1u);
  m.task.receive(m.ctx, migrants(2, 2));
  m.task.receive(m.ctx, migrants(0, 2));
  m.task.reduced(m.ctx, 1, kAllThere);
  m.task.reduced(m.ctx, 2, kAllThere);
  ASSERT_EQ(m.ctx.finishes, 1);
  Tally t;
  ASSERT_TRUE(decode_portable(m.ctx.result, t));
  EXPECT_EQ(t.particles, static_cast<std::uint64_t>(m.task.load()));
  EXPECT_TRUE(m.ctx.failures.empty()) << m.failure();
}

TEST(ParticlesTask, LostParticlesFailTheJob) {
  Middle m;
  m.task.receive(m.ctx, migrants(0, 0));
  m.task.receive(m.ctx, migrants(2, 0));
  m.task.reduced(m.ctx, 0, {599, 1.0, 0.0});
  EXPECT_EQ(m.failure(), "step 0: 599 particles in the box, expected 600 (lost or duplicated)");
}

TEST(ParticlesTask, ProtocolViolationsFailTheJob) {
  const auto failure = [](Message msg) {
    Middle m;
    m.task.receive(m.ctx, std::move(msg));
    return m.ctx.finishes == 0 && m.ctx.failures.size() == 1 ? m.failure() : "";
  };
  EXPECT_NE(failure(Message{TaskId{7, 0}, 99, {}}).find("unknown tag"), std::string::npos);
  EXPECT_NE(failure(migrants(3, 0)).find("not a neighbour"), std::string::npos);
  EXPECT_NE(failure(migrants(1, 0)).find("not a neighbour"), std::string::npos);
  EXPECT_NE(failure(migrants(0, 2)).find("migrants of step 2 at step 0"), std::string::npos);
  EXPECT_NE(failure(Message{TaskId{7, 0}, kMigrantsTag, {1, 2}}).find("malformed"),
            std::string::npos);
  EXPECT_NE(failure(migrants(0, 0, {Particle{1, 2.5, 0, 0, 0}})).find("outside our cells"),
            std::string::npos);
  EXPECT_NE(failure(migrants(0, 0, {Particle{1, std::nan(""), 0, 0, 0}})).find("outside"),
            std::string::npos);  // NaN
  EXPECT_EQ(failure(migrants(0, 0)), "");

  Middle twice;
  twice.task.receive(twice.ctx, migrants(0, 1));
  twice.task.receive(twice.ctx, migrants(0, 1));
  EXPECT_NE(twice.failure().find("second message of step 1"), std::string::npos);
  EXPECT_NE(twice.failure().find("from task 0"), std::string::npos);
}

TEST(ParticlesTask, StateRoundTripsMidStep) {
  Middle m;
  m.task.receive(m.ctx, migrants(0, 0, {Particle{9999, 4.0, 0.1, 0, 0}}));
  m.task.receive(m.ctx, migrants(0, 1));  // buffered early: must come along
  const std::vector<std::uint8_t> state = save_task_state(m.task);

  ParticlesTask copy(kParticlesParams, 1);
  ASSERT_TRUE(restore_task_state(copy, state));
  EXPECT_EQ(save_task_state(copy), state);
  EXPECT_EQ(copy.load(), m.task.load());
  RecordingContext ctx2(1);
  copy.start(ctx2);
  EXPECT_TRUE(ctx2.sends.empty());
  copy.receive(ctx2, migrants(2, 0));
  ASSERT_EQ(ctx2.contributions.size(), 1u);
  copy.reduced(ctx2, 0, kAllThere);
  copy.receive(ctx2, migrants(2, 1));
  EXPECT_EQ(ctx2.contributions.size(), 2u);  // task 0's step-1 migrants were in the state
}

TEST(ParticlesTask, StateOfAnotherTaskIsRefused) {
  Middle m;
  ParticlesTask other(kParticlesParams, 2);
  Status s = restore_task_state(other, save_task_state(m.task));
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("task 1"), std::string::npos) << s.message();
  Params more = kParticlesParams;
  more.particles = 601;
  ParticlesTask bigger(more, 1);
  EXPECT_FALSE(restore_task_state(bigger, save_task_state(m.task)));
}

}  // namespace
}  // namespace drift::particles
