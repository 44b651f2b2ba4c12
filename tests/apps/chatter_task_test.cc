// One chatter task fed crafted messages: it accepts its channels in order, buffers the next
// step's messages, and fails the job on any lost, duplicated, reordered or corrupted message.
#include "apps/chatter/chatter_task.h"

#include <gtest/gtest.h>

#include "apps/chatter/chatter_message.h"
#include "apps/chatter/chatter_result.h"
#include "apps/chatter/chatter_schedule.h"
#include "tests/apps/recording_context.h"
#include "tests/support/task_state.h"

namespace drift::chatter {
namespace {

using test_support::RecordingContext;
using test_support::restore_task_state;
using test_support::save_task_state;

const Params kTwo{2, 3, 2, 24, 0};  // task 0 and 1 send each other 2 messages per step
const TaskId kFrom1{RecordingContext::kJob, 1};

Message from1(std::uint64_t counter, std::uint64_t step, std::uint32_t bytes = 24) {
  return Message{kFrom1, kChatterTag, encode_message(1, 0, counter, step, bytes)};
}

// Task 0 after start(), with task 1's messages of the given counters (step = (counter-1)/2).
struct Fixture {
  ChatterTask task{kTwo, 0};
  RecordingContext ctx{0};
  explicit Fixture(std::initializer_list<std::uint64_t> counters) {
    task.start(ctx);
    for (std::uint64_t c : counters) task.receive(ctx, from1(c, (c - 1) / 2));
  }
  std::string failure() const { return ctx.failures.empty() ? "" : ctx.failures.front(); }
};

TEST(ChatterTask, StartSendsNumberedMessagesOnce) {
  Fixture f({});
  ASSERT_EQ(f.ctx.sends.size(), 2u);
  for (std::uint64_t i = 0; i < 2; ++i) {
    EXPECT_EQ(f.ctx.sends[i].from, (TaskId{RecordingContext::kJob, 1}));
    EXPECT_EQ(f.ctx.sends[i].payload, encode_message(0, 1, i + 1, 0, 24));
  }
  f.task.start(f.ctx);  // as after a restore
  EXPECT_EQ(f.ctx.sends.size(), 2u);
  EXPECT_TRUE(f.ctx.contributions.empty());
}

TEST(ChatterTask, ContributesWhenStepComplete) {
  Fixture f({1, 2});
  ASSERT_EQ(f.ctx.contributions.size(), 1u);
  EXPECT_EQ(f.ctx.contributions[0], (std::pair<std::uint64_t, std::vector<double>>{0, {2, 2}}));
  f.task.receive(f.ctx, from1(3, 1));  // step 1 arrives before reduced(0)
  f.task.receive(f.ctx, from1(4, 1));
  EXPECT_EQ(f.ctx.contributions.size(), 1u);
  f.task.reduced(f.ctx, 0, {4, 4});
  ASSERT_EQ(f.ctx.contributions.size(), 2u);  // step 1 was complete at once
  EXPECT_EQ(f.ctx.sends.size(), 4u);
  f.task.receive(f.ctx, from1(5, 2));
  f.task.receive(f.ctx, from1(6, 2));
  f.task.reduced(f.ctx, 1, {4, 4});
  f.task.reduced(f.ctx, 2, {4, 4});
  ASSERT_EQ(f.ctx.finishes, 1);
  ChatterResult r;
  ASSERT_TRUE(decode_portable(f.ctx.result, r));
  EXPECT_EQ(r.messages, 6u);
  EXPECT_EQ(r.bytes, 6u * 24);
  EXPECT_TRUE(f.ctx.failures.empty()) << f.failure();
}

TEST(ChatterTask, LostMessageFails) {
  Fixture f({1, 3});
  EXPECT_EQ(f.failure(), "channel 1->0: counter 3 after 1 (lost, duplicated or reordered)");
}

TEST(ChatterTask, DuplicateFails) {
  Fixture f({1, 1});
  EXPECT_EQ(f.failure(), "channel 1->0: counter 1 after 1 (lost, duplicated or reordered)");
}

TEST(ChatterTask, ReorderedFails) {
  Fixture f({2, 1});
  EXPECT_EQ(f.failure(), "channel 1->0: counter 2 after 0 (lost, duplicated or reordered)");
  EXPECT_EQ(f.ctx.failures.size(), 1u);  // a failed task ignores what follows
}

TEST(ChatterTask, CorruptedFillerFails) {
  Fixture f({});
  Message m = from1(1, 0);
  m.payload.back() ^= 1;
  f.task.receive(f.ctx, std::move(m));
  EXPECT_EQ(f.failure(), "channel 1->0: message 1: filler differs from byte 23 on (corrupted)");
  Fixture g({});
  g.task.receive(g.ctx, from1(1, 0, 23));
  EXPECT_EQ(g.failure(), "channel 1->0: message 1: 23 filler bytes, expected 24");
}

TEST(ChatterTask, WrongStepTagOrSenderFails) {
  Fixture f({1});
  f.task.receive(f.ctx, from1(2, 1));  // step 1 before this task contributed step 0
  EXPECT_NE(f.failure().find("message 2 of step 1 arrived at step 0"), std::string::npos);
  Fixture g({});
  g.task.receive(g.ctx, Message{kFrom1, 9, {}});
  EXPECT_EQ(g.failure(), "message with unknown tag 9 from task 1");
  Fixture h({});
  h.task.receive(h.ctx, Message{kFrom1, kChatterTag, {1, 2, 3}});
  EXPECT_NE(h.failure().find("channel 1->0: malformed message"), std::string::npos);
  Fixture i({});
  i.task.receive(i.ctx, Message{TaskId{RecordingContext::kJob, 0}, kChatterTag, {}});
  EXPECT_EQ(i.failure(), "message from task 0, which cannot send to us");
}

TEST(ChatterTask, ReductionMismatchFails) {
  Fixture f({1, 2});
  f.task.reduced(f.ctx, 0, {4, 3});
  EXPECT_EQ(f.failure(), "step 0: 4 messages sent in the job but 3 received");
  Fixture g({1});
  g.task.reduced(g.ctx, 0, {4, 4});
  EXPECT_EQ(g.failure(), "unexpected reduction of step 0 at step 0");
}

TEST(ChatterTask, StateRoundTripsMidStep) {
  Fixture f({1, 2, 3});
  const auto state = save_task_state(f.task);
  ChatterTask copy(kTwo, 0);
  ASSERT_TRUE(restore_task_state(copy, state));
  EXPECT_EQ(save_task_state(copy), state);
  RecordingContext ctx(0);
  copy.start(ctx);
  EXPECT_TRUE(ctx.sends.empty());
  copy.receive(ctx, from1(3, 1));  // the restored task remembers counter 3
  EXPECT_EQ(ctx.failures.at(0), "channel 1->0: counter 3 after 3 (lost, duplicated or reordered)");
}

TEST(ChatterTask, StateOfAnotherTaskIsRefused) {
  Fixture f({});
  ChatterTask other(kTwo, 1);
  EXPECT_FALSE(restore_task_state(other, save_task_state(f.task)));
  ChatterTask bigger(Params{3, 3, 2, 24, 0}, 0);
  EXPECT_FALSE(restore_task_state(bigger, save_task_state(f.task)));
}

}  // namespace
}  // namespace drift::chatter
