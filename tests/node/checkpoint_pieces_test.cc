// Unit tests of checkpoint_pieces: a state sent as chunk-sized copies (frames that point into the
// state) decodes and comes back whole, in any order of arrival, and a newer step's pieces replace
// an older step's.
#include "node/recovery/checkpoint_pieces.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "protocol/codec.h"

namespace drift {
namespace {

std::vector<std::uint8_t> piece_bytes(std::size_t n) {
  std::vector<std::uint8_t> v(n);
  std::iota(v.begin(), v.end(), std::uint8_t{7});
  return v;
}

// The copies a receiver decodes from the frames checkpoint_frames makes.
std::vector<CheckpointCopy> checkpoint_pieces(TaskId task, std::uint32_t generation,
                                              std::uint64_t step, std::uint32_t primary,
                                              const std::vector<std::uint8_t>& state,
                                              std::uint32_t chunk_bytes) {
  std::vector<CheckpointCopy> pieces;
  auto shared = std::make_shared<const std::vector<std::uint8_t>>(state);
  for (const Frame& frame :
       checkpoint_frames(task, generation, step, primary, shared, chunk_bytes)) {
    std::vector<std::uint8_t> wire(*frame.head);
    wire.insert(wire.end(), frame.tail.begin(), frame.tail.end());
    auto msg = decode_frame(wire, 1u << 20);
    EXPECT_TRUE(msg) << msg.error();
    if (msg) pieces.push_back(std::get<CheckpointCopy>(*msg));
  }
  return pieces;
}

TEST(CheckpointPieces, SplitsIntoChunksThatCoverTheStateOnce) {
  auto state = piece_bytes(10);
  auto pieces = checkpoint_pieces({5, 2}, 1, 40, 3, state, 4);
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0].offset, 0u);
  EXPECT_EQ(pieces[1].offset, 4u);
  EXPECT_EQ(pieces[2].offset, 8u);
  EXPECT_EQ(pieces[2].state.size(), 2u);
  for (const auto& p : pieces) {
    EXPECT_EQ(p.total, 10u);
    EXPECT_EQ(p.step, 40u);
    EXPECT_EQ(p.primary, 3u);
  }
}

TEST(CheckpointPieces, AnEmptyStateIsOnePiece) {
  auto pieces = checkpoint_pieces({5, 2}, 1, 40, 3, {}, 4);
  ASSERT_EQ(pieces.size(), 1u);
  CheckpointAssembler assembler;
  auto whole = assembler.add(pieces[0]);
  ASSERT_TRUE(whole);
  EXPECT_TRUE(whole->empty());
}

TEST(CheckpointPieces, ListsTheJobsItIsGatheringCopiesOf) {
  auto state = piece_bytes(1000);
  CheckpointAssembler assembler;
  for (TaskId task : {TaskId{7, 1}, TaskId{5, 2}, TaskId{7, 0}}) {
    auto pieces = checkpoint_pieces(task, 1, 40, 3, state, 64);
    EXPECT_FALSE(assembler.add(pieces[0]));
  }
  EXPECT_EQ(assembler.jobs(), (std::vector<std::uint64_t>{5, 7}));
  assembler.drop_job(5);
  EXPECT_EQ(assembler.jobs(), (std::vector<std::uint64_t>{7}));
}

TEST(CheckpointPieces, ReassemblesPiecesInOrder) {
  auto state = piece_bytes(1000);
  auto pieces = checkpoint_pieces({5, 2}, 1, 40, 3, state, 64);
  CheckpointAssembler assembler;
  CheckpointAssembler::State whole;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    whole = assembler.add(pieces[i]);
    EXPECT_EQ(assembler.why(), "") << i;
    if (i + 1 < pieces.size()) {
      EXPECT_FALSE(whole) << i;
    }
  }
  ASSERT_TRUE(whole);
  EXPECT_EQ(*whole, state);
  EXPECT_EQ(assembler.pending(), 0u);
}

TEST(CheckpointPieces, ALostPieceDropsTheCopyAndSaysWhy) {
  auto state = piece_bytes(1000);
  auto pieces = checkpoint_pieces({5, 2}, 1, 40, 3, state, 64);
  CheckpointAssembler assembler;
  EXPECT_FALSE(assembler.add(pieces[0]));
  EXPECT_FALSE(assembler.add(pieces[2]));  // pieces[1] lost
  EXPECT_NE(assembler.why().find("a piece was lost"), std::string::npos) << assembler.why();
  EXPECT_EQ(assembler.pending(), 0u);
  for (std::size_t i = 3; i < pieces.size(); ++i) EXPECT_FALSE(assembler.add(pieces[i])) << i;
  // The next copy, whole, is taken.
  auto again = checkpoint_pieces({5, 2}, 1, 41, 3, state, 64);
  CheckpointAssembler::State whole;
  for (auto& p : again) whole = assembler.add(p);
  ASSERT_TRUE(whole);
  EXPECT_EQ(*whole, state);
}

TEST(CheckpointPieces, ACopyLargerThanTheLimitIsRefusedBeforeAnythingIsReserved) {
  CheckpointAssembler assembler(1 << 20);
  CheckpointCopy piece{{5, 2}, 1, 40, 3, 0, std::uint64_t{1} << 40, piece_bytes(4)};
  EXPECT_FALSE(assembler.add(piece));
  EXPECT_NE(assembler.why().find("larger than the 1048576 allowed"), std::string::npos)
      << assembler.why();
  EXPECT_EQ(assembler.pending(), 0u);
}

TEST(CheckpointPieces, ANewerStepReplacesAnOlderOnesPieces) {
  auto old_state = piece_bytes(12);
  auto new_state = piece_bytes(12);
  std::reverse(new_state.begin(), new_state.end());
  auto old_pieces = checkpoint_pieces({5, 2}, 1, 40, 3, old_state, 4);
  auto new_pieces = checkpoint_pieces({5, 2}, 1, 50, 3, new_state, 4);
  CheckpointAssembler assembler;
  EXPECT_FALSE(assembler.add(old_pieces[0]));
  EXPECT_FALSE(assembler.add(new_pieces[0]));  // replaces step 40's piece
  EXPECT_FALSE(assembler.add(old_pieces[1]));  // a late piece of step 40: ignored
  EXPECT_EQ(assembler.why(), "a copy of a later step is on its way");
  EXPECT_FALSE(assembler.add(new_pieces[1]));
  auto whole = assembler.add(new_pieces[2]);
  ASSERT_TRUE(whole);
  EXPECT_EQ(*whole, new_state);
}

TEST(CheckpointPieces, APieceOutsideItsTotalIsDropped) {
  CheckpointCopy piece{{5, 2}, 1, 40, 3, 8, 10, piece_bytes(4)};
  EXPECT_FALSE(piece_fits(piece));
  CheckpointAssembler assembler;
  EXPECT_FALSE(assembler.add(piece));
  EXPECT_EQ(assembler.pending(), 0u);
}

TEST(CheckpointPieces, DroppingAJobForgetsItsPieces) {
  auto pieces = checkpoint_pieces({5, 2}, 1, 40, 3, piece_bytes(12), 4);
  auto other = checkpoint_pieces({6, 0}, 1, 40, 3, piece_bytes(12), 4);
  CheckpointAssembler assembler;
  assembler.add(pieces[0]);
  assembler.add(other[0]);
  assembler.drop_job(5);
  EXPECT_EQ(assembler.pending(), 1u);
}

}  // namespace
}  // namespace drift
