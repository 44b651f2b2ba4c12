// One heat2d task fed crafted messages around changes of the decomposition: a spare task's
// identity contributions, a split's pieces and the adopting task's wait for them (pieces before or
// after its regrain, out of order, in several messages), a merge, ignored changes, protocol
// violations, and states saved mid-adoption or after the tile changed.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "apps/heat2d/halo_message.h"
#include "apps/heat2d/heat2d_task.h"
#include "apps/heat2d/initial_condition.h"
#include "apps/heat2d/piece_message.h"
#include "apps/heat2d/task_result.h"
#include "tests/apps/recording_context.h"
#include "tests/support/task_state.h"

namespace drift::heat2d {
namespace {

using test_support::RecordingContext;
using test_support::restore_task_state;
using test_support::save_task_state;

// 10 x 8: task 0 owns columns [0, 5), task 1 columns [5, 10), all 8 rows; task 2 is spare.
const Params kGrainParams{10, 8, 3, 3, 1};
const std::vector<GrainChange> kSplit0{{GrainKind::kSplit, 0, 2}};  // 0 keeps rows [0, 4)
const std::vector<double> kReduced{1.0, 0.5};

Message halo(std::uint32_t from, std::uint64_t step, std::size_t n) {
  return Message{TaskId{RecordingContext::kJob, from}, kHaloTag,
                 encode_portable(HaloMessage{step, std::vector<double>(n, 1.0)})};
}

Message piece(std::uint32_t from, std::uint64_t step, std::uint64_t offset, std::size_t n) {
  return Message{TaskId{RecordingContext::kJob, from}, kPieceTag,
                 encode_portable(PieceMessage{step, offset, std::vector<double>(n, 2.0)})};
}

template <class T>
T decoded(const Message& sent) {
  T value;
  EXPECT_TRUE(decode_portable(sent.payload, value));
  return value;
}

// The sends of one handler: (destination, tag, values).
std::vector<std::tuple<std::uint32_t, std::uint32_t, std::size_t>> summary(
    const RecordingContext& ctx, std::size_t first = 0) {
  std::vector<std::tuple<std::uint32_t, std::uint32_t, std::size_t>> out;
  for (std::size_t i = first; i < ctx.sends.size(); ++i) {
    const Message& m = ctx.sends[i];
    const std::size_t n = m.tag == kHaloTag ? decoded<HaloMessage>(m).values.size()
                                            : decoded<PieceMessage>(m).values.size();
    out.emplace_back(m.from.index, m.tag, n);
  }
  return out;
}

using Sends = std::vector<std::tuple<std::uint32_t, std::uint32_t, std::size_t>>;

// Task `index` started, with its halo of step 0 from its one neighbour: it has contributed 0.
struct Swept {
  explicit Swept(std::uint32_t index) : task(kGrainParams, index), ctx(index) {
    task.start(ctx);
    if (index < 2) task.receive(ctx, halo(1 - index, 0, 8));
  }
  Heat2dTask task;
  RecordingContext ctx;
};

TEST(Heat2dGrainTask, SpareTaskContributesTheIdentityAndFinishesWithZero) {
  Swept spare(2);
  EXPECT_EQ(spare.task.load(), 0.0);
  EXPECT_FALSE(spare.task.can_split());
  EXPECT_EQ(spare.task.merge_partner(), std::nullopt);
  EXPECT_TRUE(spare.ctx.sends.empty());
  ASSERT_EQ(spare.ctx.contributions.size(), 1u);
  EXPECT_EQ(spare.ctx.contributions[0], (std::pair<std::uint64_t, std::vector<double>>{0, {0, 0}}));
  spare.task.start(spare.ctx);  // as after a restore: nothing new
  EXPECT_EQ(spare.ctx.contributions.size(), 1u);
  spare.task.reduced(spare.ctx, 0, kReduced);
  spare.task.reduced(spare.ctx, 1, kReduced);
  EXPECT_EQ(spare.ctx.contributions.size(), 3u);
  EXPECT_EQ(spare.ctx.work, 0.0);
  spare.task.reduced(spare.ctx, 2, {4.0, 0.25});
  ASSERT_EQ(spare.ctx.finishes, 1);
  EXPECT_EQ(decoded<TaskResult>(Message{{}, 0, spare.ctx.result}), (TaskResult{0, 4.0, 0.25}));
}

TEST(Heat2dGrainTask, ActiveTilesCanSplitAndMerge) {
  EXPECT_TRUE(Heat2dTask(kGrainParams, 0).can_split());
  EXPECT_EQ(Heat2dTask(kGrainParams, 0).merge_partner(), 1u);
  EXPECT_EQ(Heat2dTask(kGrainParams, 1).merge_partner(), 0u);
  EXPECT_EQ(Heat2dTask(kGrainParams, 0).load(), 40.0);
}

TEST(Heat2dGrainTask, SplitSendsTheSecondHalfAfterTheSweep) {
  Swept t(0);
  const std::size_t before = t.ctx.sends.size();
  t.task.regrain(t.ctx, 0, kSplit0);
  EXPECT_EQ(t.task.load(), 20.0);
  ASSERT_EQ(summary(t.ctx, before), (Sends{{2, kPieceTag, 20}}));
  const PieceMessage p = decoded<PieceMessage>(t.ctx.sends.back());
  EXPECT_EQ(p.step, 1u);
  EXPECT_EQ(p.offset, 0u);
  for (std::uint32_t c = 0; c < 5; ++c) {  // row-major: the last row is the grid's south boundary
    EXPECT_EQ(p.values[15 + c], initial_value(7, c, 10, 8)) << c;
  }
  t.task.reduced(t.ctx, 0, kReduced);  // step 1's edges go by the new layout
  EXPECT_EQ(summary(t.ctx, before + 1), (Sends{{1, kHaloTag, 4}, {2, kHaloTag, 5}}));
  t.task.receive(t.ctx, halo(2, 1, 5));
  t.task.receive(t.ctx, halo(1, 1, 4));
  EXPECT_EQ(t.ctx.contributions.size(), 2u);
  EXPECT_EQ(t.ctx.work, 24.0 + 12.0);  // 6 x 4 interior cells, then 3 x 4
}

TEST(Heat2dGrainTask, AdoptingTaskWaitsForItsCells) {
  Swept d(2);
  d.task.regrain(d.ctx, 0, kSplit0);
  EXPECT_EQ(d.task.load(), 20.0);
  d.task.receive(d.ctx, halo(1, 1, 4));  // a neighbour already at step 1
  d.task.reduced(d.ctx, 0, kReduced);
  EXPECT_TRUE(d.ctx.sends.empty());
  EXPECT_EQ(d.ctx.contributions.size(), 1u);
  d.task.receive(d.ctx, piece(0, 1, 0, 20));
  EXPECT_EQ(summary(d.ctx), (Sends{{0, kHaloTag, 5}, {1, kHaloTag, 4}}));
  d.task.receive(d.ctx, halo(0, 1, 5));
  ASSERT_EQ(d.ctx.contributions.size(), 2u);
  EXPECT_EQ(d.ctx.contributions[1].first, 1u);
  EXPECT_EQ(d.ctx.work, 12.0);  // rows 4..6 x columns 1..4
}

TEST(Heat2dGrainTask, PiecesMayComeBeforeTheRegrainAndOutOfOrder) {
  Swept d(2);
  d.task.receive(d.ctx, piece(0, 1, 12, 8));
  d.task.receive(d.ctx, piece(0, 1, 0, 12));
  d.task.regrain(d.ctx, 0, kSplit0);
  EXPECT_TRUE(d.ctx.failures.empty());
  d.task.reduced(d.ctx, 0, kReduced);
  EXPECT_EQ(summary(d.ctx), (Sends{{0, kHaloTag, 5}, {1, kHaloTag, 4}}));
  EXPECT_TRUE(d.ctx.failures.empty());
}

TEST(Heat2dGrainTask, BigTilesTravelInPiecesOfAtMostOneMebibyte) {
  const Params big{1000, 300, 2, 2, 1};  // one 300 x 1000 tile: columns are cut
  Heat2dTask t(big, 0);
  Heat2dTask d(big, 1);
  RecordingContext tc(0), dc(1);
  t.start(tc);
  d.start(dc);
  t.regrain(tc, 0, {{GrainKind::kSplit, 0, 1}});
  d.regrain(dc, 0, {{GrainKind::kSplit, 0, 1}});
  ASSERT_EQ(tc.sends.size(), 2u);
  std::uint64_t cells = 0;
  for (const Message& m : tc.sends) {
    EXPECT_LE(m.payload.size(), kMaxPieceBytes);
    const PieceMessage p = decoded<PieceMessage>(m);
    EXPECT_EQ(p.offset, cells);
    cells += p.values.size();
  }
  EXPECT_EQ(cells, 300u * 500u);
  EXPECT_GT(cells, kMaxPieceValues);
  d.reduced(dc, 0, kReduced);
  for (auto it = tc.sends.rbegin(); it != tc.sends.rend(); ++it) {  // last piece first
    EXPECT_TRUE(dc.sends.empty());
    d.receive(dc, Message{TaskId{7, 0}, it->tag, it->payload});
  }
  EXPECT_EQ(summary(dc), (Sends{{0, kHaloTag, 300}}));
  EXPECT_TRUE(dc.failures.empty());
}

TEST(Heat2dGrainTask, MergedTaskHandsItsTileOverAndTurnsSpare) {
  const std::vector<GrainChange> merge{{GrainKind::kMerge, 0, 1}};
  Swept p(1);
  p.task.regrain(p.ctx, 0, merge);
  EXPECT_EQ(summary(p.ctx, 1), (Sends{{0, kPieceTag, 40}}));
  EXPECT_EQ(p.task.load(), 0.0);
  p.task.reduced(p.ctx, 0, kReduced);
  EXPECT_EQ(p.ctx.sends.size(), 2u);  // no edges any more
  EXPECT_EQ(p.ctx.contributions.back(), (std::pair<std::uint64_t, std::vector<double>>{1, {0, 0}}));

  Swept t(0);
  t.task.regrain(t.ctx, 0, merge);
  EXPECT_EQ(t.task.load(), 80.0);
  EXPECT_EQ(t.task.merge_partner(), std::nullopt);
  t.task.reduced(t.ctx, 0, kReduced);
  EXPECT_EQ(t.ctx.contributions.size(), 1u);
  t.task.receive(t.ctx, piece(1, 1, 0, 40));
  ASSERT_EQ(t.ctx.contributions.size(), 2u);  // no neighbours: swept at once
  EXPECT_EQ(t.ctx.work, 24.0 + 48.0);
}

TEST(Heat2dGrainTask, ChangesThatCannotApplyChangeNothing) {
  Swept plain(0);
  plain.task.reduced(plain.ctx, 0, kReduced);
  for (const std::vector<GrainChange>& changes : std::vector<std::vector<GrainChange>>{
           {{GrainKind::kSplit, 0, 1}},                             // partner not spare
           {{GrainKind::kSplit, 2, 0}},                             // a spare task splits nothing
           {{GrainKind::kMerge, 0, 2}},                             // partner spare
           {{GrainKind::kSplit, 0, 3}},                             // out of range
           {{GrainKind::kSplit, 0, 1}, {GrainKind::kSplit, 0, 2}},  // 0 named twice
       }) {
    Swept t(0);
    t.task.regrain(t.ctx, 0, changes);
    t.task.reduced(t.ctx, 0, kReduced);
    EXPECT_EQ(t.ctx.sends.size(), 2u);
    EXPECT_EQ(summary(t.ctx), summary(plain.ctx));
    EXPECT_TRUE(t.ctx.failures.empty());
    EXPECT_EQ(save_task_state(t.task), save_task_state(plain.task));
  }
}

// What a task does with one message after setup; true if it failed the job.
template <class Setup>
bool refuses(std::uint32_t index, Setup setup, Message m) {
  Swept s(index);
  setup(s);
  s.task.receive(s.ctx, std::move(m));
  return s.ctx.failures.size() == 1 && s.ctx.finishes == 0;
}

TEST(Heat2dGrainTask, GrainProtocolViolationsFailTheJob) {
  const auto nothing = [](Swept&) {};
  const auto adopting = [](Swept& s) {
    s.task.regrain(s.ctx, 0, kSplit0);
    s.task.reduced(s.ctx, 0, kReduced);
  };
  EXPECT_FALSE(refuses(2, adopting, piece(0, 1, 0, 20)));
  EXPECT_TRUE(refuses(2, adopting, piece(1, 1, 0, 20)));  // not the giver
  EXPECT_TRUE(refuses(2, adopting, piece(0, 1, 0, 21)));  // past the rectangle
  EXPECT_TRUE(refuses(2, adopting, piece(0, 1, 21, 1)));
  EXPECT_TRUE(refuses(2, adopting, piece(0, 1, 0, 0)));   // empty
  EXPECT_TRUE(refuses(2, adopting, piece(0, 3, 0, 20)));  // two steps ahead
  EXPECT_TRUE(refuses(2, adopting, halo(1, 1, 8)));       // the shared stretch is 4 rows
  EXPECT_TRUE(refuses(2, adopting, Message{TaskId{7, 0}, kPieceTag, {1, 2, 3}}));
  EXPECT_TRUE(refuses(
      2,
      [&](Swept& s) {
        adopting(s);
        s.task.receive(s.ctx, piece(0, 1, 0, 12));
      },
      piece(0, 1, 8, 12)));  // overlaps
  // Checked against the layout once their step is current: a halo for a spare task, pieces for
  // a task that adopts nothing.
  for (auto [index, m] : {std::pair{2u, halo(0, 1, 5)}, std::pair{0u, piece(1, 1, 0, 20)}}) {
    EXPECT_FALSE(refuses(index, nothing, m));
    Swept s(index);
    s.task.receive(s.ctx, std::move(m));
    s.task.reduced(s.ctx, 0, kReduced);
    EXPECT_EQ(s.ctx.failures.size(), 1u) << index;
  }
}

TEST(Heat2dGrainTask, UnexpectedRegrainFailsTheJob) {
  Swept t(0);
  t.task.regrain(t.ctx, 1, kSplit0);
  EXPECT_EQ(t.ctx.failures.size(), 1u);
  Swept u(1);
  u.task.regrain(u.ctx, 0, {});  // nothing to do: fine whenever
  u.task.reduced(u.ctx, 0, kReduced);
  u.task.regrain(u.ctx, 1, kSplit0);  // before its sweep of step 1
  EXPECT_EQ(u.ctx.failures.size(), 1u);
}

TEST(Heat2dGrainTask, StateRoundTripsMidAdoptionIntoATaskBuiltAsSpare) {
  const Params big{1000, 300, 2, 2, 1};
  Heat2dTask t(big, 0), d(big, 1);
  RecordingContext tc(0), dc(1);
  t.start(tc);
  d.start(dc);
  t.regrain(tc, 0, {{GrainKind::kSplit, 0, 1}});
  d.regrain(dc, 0, {{GrainKind::kSplit, 0, 1}});
  d.reduced(dc, 0, kReduced);
  d.receive(dc, Message{TaskId{7, 0}, kPieceTag, tc.sends[0].payload});
  const std::vector<std::uint8_t> state = save_task_state(d);

  Heat2dTask copy(big, 1);
  ASSERT_TRUE(restore_task_state(copy, state));
  EXPECT_EQ(save_task_state(copy), state);
  EXPECT_EQ(copy.load(), 150000.0);
  RecordingContext cc(1);
  copy.start(cc);
  EXPECT_TRUE(cc.sends.empty());
  copy.receive(cc, Message{TaskId{7, 0}, kPieceTag, tc.sends[1].payload});
  EXPECT_EQ(summary(cc), (Sends{{0, kHaloTag, 300}}));

  // The giver, after the split, loads into a task built with the whole grid.
  Heat2dTask giver(big, 0);
  ASSERT_TRUE(restore_task_state(giver, save_task_state(t)));
  EXPECT_EQ(giver.load(), 150000.0);
}

TEST(Heat2dGrainTask, StatesThatDoNotFitAreRefused) {
  Swept t(0);
  std::vector<std::uint8_t> state = save_task_state(t.task);
  Heat2dTask other(Params{10, 8, 3, 3, 0}, 0);  // no spare task
  Status s = restore_task_state(other, state);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("1 spare"), std::string::npos) << s.message();
  // flag, index, width, height, tasks, spare (4 bytes each), steps, step (8), phase, regrained,
  // then the layout: width, height (4), length (8), bool, tile 0's rows.begin, rows.end (4)
  state[1 + 20 + 16 + 2 + 8 + 8 + 1 + 4] = 9;
  Heat2dTask fresh(kGrainParams, 0);
  s = restore_task_state(fresh, state);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("heat2d state of task 0: tile of task 0"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace drift::heat2d
