// A task's unused messages: duplicate halos refused, halos and pieces of a step checked against
// the neighbours and the adoption of that step only, pieces kept in offset order whatever their
// arrival order, and a state with pieces out of order refused.
#include "apps/heat2d/inbox.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <drift/archives.h>

namespace drift::heat2d {
namespace {

const std::vector<Neighbour> kAdjacent{{1, kWest, Range{0, 4}}, {2, kWest, Range{4, 8}}};
const Adoption kAdoption{5, Rect{Range{0, 2}, Range{0, 5}}};  // 10 cells from task 5

PendingHalo pending_halo(std::uint64_t step, std::uint32_t from, std::size_t n) {
  return PendingHalo{step, from, std::vector<double>(n, 1.0)};
}

PendingPiece pending_piece(std::uint64_t step, std::uint32_t from, std::uint64_t offset,
                           double first, std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = first + static_cast<double>(i);
  return PendingPiece{step, from, offset, v};
}

TEST(Inbox, HalosOfAStepCompleteOncePerNeighbour) {
  Inbox inbox;
  EXPECT_TRUE(inbox.add_halo(pending_halo(3, 1, 4)));
  EXPECT_FALSE(inbox.add_halo(pending_halo(3, 1, 4)));
  EXPECT_TRUE(inbox.add_halo(pending_halo(4, 9, 7)));  // next step: not checked yet
  EXPECT_EQ(inbox.check(3, kAdjacent, std::nullopt), "");
  EXPECT_FALSE(inbox.halos_complete(3, kAdjacent));
  EXPECT_TRUE(inbox.add_halo(pending_halo(3, 2, 4)));
  EXPECT_TRUE(inbox.halos_complete(3, kAdjacent));
  EXPECT_EQ(inbox.take_halo(3, 2), std::vector<double>(4, 1.0));
  EXPECT_EQ(inbox.halos().size(), 2u);
  EXPECT_EQ(inbox.check(4, kAdjacent, std::nullopt),
            "a halo of step 4 from task 9, which is no neighbour");
}

TEST(Inbox, HaloLengthMustBeTheSharedStretch) {
  Inbox inbox;
  inbox.add_halo(pending_halo(0, 2, 5));
  EXPECT_EQ(inbox.check(0, kAdjacent, std::nullopt),
            "a halo of step 0 from task 2 with 5 values for a shared edge of 4 cells");
}

TEST(Inbox, PiecesAssembleInOffsetOrder) {
  Inbox inbox;
  inbox.add_piece(pending_piece(2, 5, 6, 6.0, 4));
  inbox.add_piece(pending_piece(1, 5, 0, 0.0, 3));  // an older step, kept apart
  inbox.add_piece(pending_piece(2, 5, 0, 0.0, 6));
  EXPECT_EQ(inbox.check(2, {}, kAdoption), "");
  EXPECT_TRUE(inbox.pieces_complete(2, 10));
  const std::vector<double> all = inbox.take_pieces(2);
  ASSERT_EQ(all.size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(all[i], static_cast<double>(i));
  EXPECT_EQ(inbox.pieces().size(), 1u);
}

TEST(Inbox, PiecesMustComeFromTheGiverAndFitTheRectangle) {
  const auto check = [](std::vector<PendingPiece> pieces, const std::optional<Adoption>& a) {
    Inbox inbox;
    for (PendingPiece& p : pieces) inbox.add_piece(std::move(p));
    return inbox.check(0, {}, a);
  };
  EXPECT_EQ(check({pending_piece(0, 5, 0, 0, 4)}, kAdoption), "");
  EXPECT_EQ(check({pending_piece(0, 5, 0, 0, 4)}, std::nullopt),
            "a piece of a tile of step 0 from task 5, which hands this task no cells");
  EXPECT_NE(check({pending_piece(0, 4, 0, 0, 4)}, kAdoption), "");
  EXPECT_NE(check({pending_piece(0, 5, 0, 0, 4), pending_piece(0, 5, 3, 0, 4)}, kAdoption),
            "");  // overlap
  EXPECT_NE(check({pending_piece(0, 5, 0, 0, 4), pending_piece(0, 5, 0, 0, 4)}, kAdoption),
            "");                                                    // twice
  EXPECT_NE(check({pending_piece(0, 5, 8, 0, 3)}, kAdoption), "");  // past the end
  EXPECT_NE(check({pending_piece(0, 5, 11, 0, 1)}, kAdoption), "");
  EXPECT_EQ(check({pending_piece(1, 4, 0, 0, 99)}, kAdoption), "");  // another step
}

// Inbox's wire layout with the pieces as given, for a state that has them out of order.
struct UnorderedInbox {
  std::vector<PendingHalo> halos;
  std::vector<PendingPiece> pieces;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(halos, pieces);
  }
};

TEST(Inbox, StateRoundTripsAndPiecesMustBeInOrder) {
  Inbox inbox;
  inbox.add_halo(pending_halo(3, 1, 4));
  inbox.add_piece(pending_piece(4, 5, 6, 6.0, 4));
  inbox.add_piece(pending_piece(4, 5, 0, 0.0, 6));
  const std::vector<std::uint8_t> bytes = encode_portable(inbox);
  Inbox back;
  ASSERT_TRUE(decode_portable(bytes, back));
  EXPECT_EQ(encode_portable(back), bytes);

  const Status s =
      decode_portable(encode_portable(UnorderedInbox{
                          {}, {pending_piece(4, 5, 6, 6.0, 4), pending_piece(4, 5, 0, 0.0, 6)}}),
                      back);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("order"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace drift::heat2d
