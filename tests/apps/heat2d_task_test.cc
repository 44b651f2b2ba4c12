#include "apps/heat2d/heat2d_task.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apps/heat2d/halo_message.h"
#include "apps/heat2d/task_result.h"
#include <drift/context.h>
#include "tests/apps/recording_context.h"
#include "tests/support/task_state.h"

namespace drift::heat2d {
namespace {

using test_support::RecordingContext;
using test_support::restore_task_state;
using test_support::save_task_state;

Message halo_from(std::uint32_t from, std::uint64_t step, std::size_t n) {
  return Message{TaskId{7, from}, kHaloTag,
                 encode_portable(HaloMessage{step, std::vector<double>(n, 1.0)})};
}

const Params kHeat2dParams{10, 8, 3, 2};  // 8 x 6 interior split into 2 x 1 tiles of 4 x 6

TEST(Heat2dTask, LoadIsCellsOwned) {
  EXPECT_EQ(Heat2dTask(kHeat2dParams, 0).load() + Heat2dTask(kHeat2dParams, 1).load(), 80.0);
}

TEST(Heat2dTask, StartSendsEdgesOnceAndWaitsForHalos) {
  Heat2dTask task(kHeat2dParams, 0);
  RecordingContext ctx(0, {});
  task.start(ctx);
  ASSERT_EQ(ctx.sends.size(), 1u);
  EXPECT_EQ(ctx.sends[0].from.index, 1u);
  EXPECT_EQ(ctx.sends[0].tag, kHaloTag);
  HaloMessage h;
  ASSERT_TRUE(decode_portable(ctx.sends[0].payload, h));
  EXPECT_EQ(h.step, 0u);
  EXPECT_EQ(h.values.size(), 8u);  // all rows of the tile, boundary rows included
  EXPECT_TRUE(ctx.contributions.empty());
  task.start(ctx);  // as after a restore: nothing new
  EXPECT_EQ(ctx.sends.size(), 1u);

  task.receive(ctx, halo_from(1, 0, 8));
  ASSERT_EQ(ctx.contributions.size(), 1u);
  EXPECT_EQ(ctx.contributions[0].first, 0u);
  EXPECT_EQ(ctx.work, 24.0);  // 4 x 6 interior cells
}

TEST(Heat2dTask, BuffersNextStepHaloUntilReduced) {
  Heat2dTask task(kHeat2dParams, 1);
  RecordingContext ctx(1, {});
  task.start(ctx);
  task.receive(ctx, halo_from(0, 0, 8));
  task.receive(ctx, halo_from(0, 1, 8));  // the neighbour is already at step 1
  EXPECT_EQ(ctx.contributions.size(), 1u);
  task.reduced(ctx, 0, {1.0, 0.5});
  EXPECT_EQ(ctx.contributions.size(), 2u);  // step 1 swept at once from the buffered halo
  task.receive(ctx, halo_from(0, 2, 8));
  task.reduced(ctx, 1, {1.0, 0.5});
  task.reduced(ctx, 2, {4.0, 0.25});
  ASSERT_EQ(ctx.finishes, 1);
  TaskResult r;
  ASSERT_TRUE(decode_portable(ctx.result, r));
  EXPECT_EQ(r.residual_sum_sq, 4.0);
  EXPECT_EQ(r.max_change, 0.25);
}

TEST(Heat2dTask, ProtocolViolationsFailTheJob) {
  const auto violates = [](Message m) {
    Heat2dTask task(kHeat2dParams, 0);
    RecordingContext ctx(0, {});
    task.start(ctx);
    task.receive(ctx, std::move(m));
    return ctx.finishes == 0 && ctx.failures.size() == 1 && !ctx.failures[0].empty();
  };
  EXPECT_TRUE(violates(Message{TaskId{7, 1}, 99, {}}));            // unknown tag
  EXPECT_TRUE(violates(halo_from(0, 0, 8)));                       // not a neighbour
  EXPECT_TRUE(violates(halo_from(1, 0, 7)));                       // wrong length
  EXPECT_TRUE(violates(halo_from(1, 2, 8)));                       // two steps ahead
  EXPECT_TRUE(violates(Message{TaskId{7, 1}, kHaloTag, {1, 2}}));  // malformed payload
  EXPECT_FALSE(violates(halo_from(1, 0, 8)));
}

TEST(Heat2dTask, StateRoundTripsMidStep) {
  Heat2dTask task(kHeat2dParams, 1);
  RecordingContext ctx(1, {});
  task.start(ctx);
  task.receive(ctx, halo_from(0, 0, 8));
  task.receive(ctx, halo_from(0, 1, 8));
  const std::vector<std::uint8_t> state = save_task_state(task);

  Heat2dTask copy(kHeat2dParams, 1);
  ASSERT_TRUE(restore_task_state(copy, state));
  EXPECT_EQ(save_task_state(copy), state);
  RecordingContext ctx2(1, {});
  copy.start(ctx2);
  EXPECT_TRUE(ctx2.sends.empty());
  copy.reduced(ctx2, 0, {1.0, 0.5});
  EXPECT_EQ(ctx2.contributions.size(), 1u);  // the buffered step-1 halo came along
}

TEST(Heat2dTask, StateOfAnotherTaskIsRefused) {
  Heat2dTask task(kHeat2dParams, 0);
  Heat2dTask other(kHeat2dParams, 1);
  Status s = restore_task_state(other, save_task_state(task));
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("task 0"), std::string::npos) << s.message();
  Heat2dTask bigger(Params{12, 8, 3, 2}, 0);
  EXPECT_FALSE(restore_task_state(bigger, save_task_state(task)));
}

}  // namespace
}  // namespace drift::heat2d
