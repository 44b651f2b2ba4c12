// One ballast task: steps on reduced(), finishes with its state digest, refuses messages, and
// its (big) state round-trips exactly.
#include "apps/ballast/ballast_task.h"

#include <gtest/gtest.h>

#include "apps/ballast/ballast_result.h"
#include "apps/ballast/ballast_state.h"
#include "tests/apps/recording_context.h"
#include "tests/support/task_state.h"

namespace drift::ballast {
namespace {

using test_support::RecordingContext;
using test_support::restore_task_state;
using test_support::save_task_state;

const Params kBallastParams{1000, 0, 3, 2};  // 125 words, no busy work, 3 steps

TEST(BallastTask, StepsAndFinishesWithItsDigest) {
  BallastTask task(kBallastParams, 1);
  RecordingContext ctx(1);
  task.start(ctx);
  task.start(ctx);  // as after a restore: nothing new
  ASSERT_EQ(ctx.contributions.size(), 1u);
  task.reduced(ctx, 0, {2});
  task.reduced(ctx, 1, {2});
  EXPECT_EQ(ctx.finishes, 0);
  task.reduced(ctx, 2, {2});
  ASSERT_EQ(ctx.finishes, 1);
  BallastResult r;
  ASSERT_TRUE(decode_portable(ctx.result, r));
  auto words = initial_words(1, 125);
  for (std::uint64_t k = 0; k < 3; ++k) apply_step(words, 1, k);
  EXPECT_EQ(r, (BallastResult{words_digest(1, words), 1000}));
  EXPECT_TRUE(ctx.failures.empty());
}

TEST(BallastTask, MessagesAndWrongReductionsFail) {
  BallastTask task(kBallastParams, 0);
  RecordingContext ctx(0);
  task.start(ctx);
  task.receive(ctx, Message{TaskId{7, 1}, 1, {}});
  EXPECT_EQ(ctx.failures.at(0), "ballast tasks exchange no messages, got one from task 1");
  BallastTask other(kBallastParams, 0);
  RecordingContext ctx2(0);
  other.start(ctx2);
  other.reduced(ctx2, 1, {2});
  EXPECT_EQ(ctx2.failures.at(0), "unexpected reduction of step 1 at step 0");
}

TEST(BallastTask, BigStateRoundTrips) {
  const Params big{16u << 20, 0, 5, 2};
  BallastTask task(big, 0);
  RecordingContext ctx(0);
  task.start(ctx);
  const auto state = save_task_state(task);
  EXPECT_LT(state.size(), big.state_bytes + 100);  // one binary block plus a small header
  BallastTask copy(big, 0);
  ASSERT_TRUE(restore_task_state(copy, state));
  EXPECT_EQ(save_task_state(copy), state);
  BallastTask unstarted(big, 0);
  EXPECT_LT(save_task_state(unstarted).size(), 100u);  // no words before start()
}

TEST(BallastTask, StateOfAnotherTaskIsRefused) {
  BallastTask task(kBallastParams, 0);
  RecordingContext ctx(0);
  task.start(ctx);
  BallastTask other(kBallastParams, 1);
  EXPECT_FALSE(restore_task_state(other, save_task_state(task)));
  BallastTask bigger(Params{2000, 0, 3, 2}, 0);
  EXPECT_FALSE(restore_task_state(bigger, save_task_state(task)));
}

}  // namespace
}  // namespace drift::ballast
