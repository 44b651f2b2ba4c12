// Chunked state transfer: chunk_count and chunk_of split a state into pieces that cover it
// exactly (an empty state still takes one, empty, chunk); StateAssembler puts them back in any
// order and refuses duplicates, pieces of the wrong size and indices out of range.
#include "migration/state_transfer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace drift {
namespace {

std::vector<std::uint8_t> pattern(std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(i * 31 + i / 256);
  return v;
}

TEST(ChunkCountTest, EmptyStateTakesOneChunk) {
  EXPECT_EQ(chunk_count(0, 4096), 1u);
  EXPECT_EQ(chunk_count(0, kDefaultChunkBytes), 1u);
}

TEST(ChunkCountTest, RoundsUp) {
  EXPECT_EQ(chunk_count(1, 4096), 1u);
  EXPECT_EQ(chunk_count(4095, 4096), 1u);
  EXPECT_EQ(chunk_count(4096, 4096), 1u);
  EXPECT_EQ(chunk_count(4097, 4096), 2u);
  EXPECT_EQ(chunk_count(3 * 4096, 4096), 3u);
  EXPECT_EQ(chunk_count(std::uint64_t{1} << 30, kDefaultChunkBytes), 1024u);
  EXPECT_EQ(chunk_count((std::uint64_t{1} << 30) + 1, kDefaultChunkBytes), 1025u);
}

TEST(ChunkOfTest, EmptyStateHasOneEmptyChunk) {
  const std::vector<std::uint8_t> empty;
  EXPECT_TRUE(chunk_of(empty, 0, 4096).empty());
}

TEST(ChunkOfTest, ChunksCoverTheStateExactly) {
  for (std::size_t size : {std::size_t{1}, std::size_t{100}, std::size_t{4095}, std::size_t{4096},
                           std::size_t{4097}, std::size_t{3 * 4096}, std::size_t{50'001}}) {
    const auto state = pattern(size);
    const std::uint32_t n = chunk_count(size, 4096);
    std::vector<std::uint8_t> joined;
    for (std::uint32_t i = 0; i < n; ++i) {
      auto piece = chunk_of(state, i, 4096);
      EXPECT_FALSE(piece.empty()) << "size " << size << " chunk " << i;
      EXPECT_LE(piece.size(), 4096u);
      if (i + 1 < n) {
        EXPECT_EQ(piece.size(), 4096u) << "only the last chunk is short";
      }
      EXPECT_EQ(piece.data(), state.data() + std::size_t{i} * 4096) << "a view, not a copy";
      joined.insert(joined.end(), piece.begin(), piece.end());
    }
    EXPECT_EQ(joined, state) << "size " << size;
    EXPECT_TRUE(chunk_of(state, n, 4096).empty()) << "past the end";
  }
}

TEST(StateAssemblerTest, EmptyState) {
  StateAssembler a(0, chunk_count(0, 4096), 4096);
  EXPECT_FALSE(a.complete());
  ASSERT_TRUE(a.add(0, {}).is_ok());
  EXPECT_TRUE(a.complete());
  EXPECT_TRUE(a.take().flatten().empty());
}

TEST(StateAssemblerTest, EmptyStateRefusesANonEmptyChunk) {
  StateAssembler a(0, 1, 4096);
  const std::vector<std::uint8_t> one{7};
  Status st = a.add(0, one);
  EXPECT_FALSE(st.is_ok());
  EXPECT_NE(st.message().find("expected 0"), std::string::npos) << st.message();
  EXPECT_FALSE(a.complete());
}

TEST(StateAssemblerTest, InOrder) {
  const auto state = pattern(10'000);
  const std::uint32_t n = chunk_count(state.size(), 4096);
  StateAssembler a(state.size(), n, 4096);
  for (std::uint32_t i = 0; i < n; ++i) {
    EXPECT_FALSE(a.complete());
    ASSERT_TRUE(a.add(i, chunk_of(state, i, 4096)).is_ok()) << i;
  }
  EXPECT_TRUE(a.complete());
  EXPECT_EQ(a.take().flatten(), state);
}

TEST(StateAssemblerTest, AnyOrder) {
  const auto state = pattern(17 * 4096 + 5);
  const std::uint32_t n = chunk_count(state.size(), 4096);
  ASSERT_EQ(n, 18u);
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937 rng(3);
  for (int round = 0; round < 20; ++round) {
    std::shuffle(order.begin(), order.end(), rng);
    StateAssembler a(state.size(), n, 4096);
    for (std::uint32_t i : order) ASSERT_TRUE(a.add(i, chunk_of(state, i, 4096)).is_ok());
    ASSERT_TRUE(a.complete());
    EXPECT_EQ(a.take().flatten(), state) << "round " << round;
  }
}

TEST(StateAssemblerTest, DuplicateIsRefused) {
  const auto state = pattern(3 * 4096);
  StateAssembler a(state.size(), 3, 4096);
  ASSERT_TRUE(a.add(1, chunk_of(state, 1, 4096)).is_ok());
  Status st = a.add(1, chunk_of(state, 1, 4096));
  EXPECT_FALSE(st.is_ok());
  EXPECT_NE(st.message().find("chunk 1 arrived twice"), std::string::npos) << st.message();
  ASSERT_TRUE(a.add(0, chunk_of(state, 0, 4096)).is_ok());
  EXPECT_FALSE(a.complete()) << "a refused duplicate must not count";
  ASSERT_TRUE(a.add(2, chunk_of(state, 2, 4096)).is_ok());
  EXPECT_TRUE(a.complete());
  EXPECT_EQ(a.take().flatten(), state);
}

TEST(StateAssemblerTest, WrongSizeIsRefused) {
  const auto state = pattern(4096 + 100);
  StateAssembler a(state.size(), 2, 4096);
  const std::vector<std::uint8_t> short_piece(4000), long_last(101), short_last(99);
  Status st = a.add(0, short_piece);
  EXPECT_FALSE(st.is_ok());
  EXPECT_NE(st.message().find("chunk 0 has 4000 bytes, expected 4096"), std::string::npos)
      << st.message();
  EXPECT_FALSE(a.add(1, long_last).is_ok());
  EXPECT_FALSE(a.add(1, short_last).is_ok());
  EXPECT_FALSE(a.complete());
  // The refused pieces left nothing behind: the right ones still assemble the state.
  ASSERT_TRUE(a.add(1, chunk_of(state, 1, 4096)).is_ok());
  ASSERT_TRUE(a.add(0, chunk_of(state, 0, 4096)).is_ok());
  EXPECT_TRUE(a.complete());
  EXPECT_EQ(a.take().flatten(), state);
}

TEST(StateAssemblerTest, OutOfRangeIsRefused) {
  const auto state = pattern(2 * 4096);
  StateAssembler a(state.size(), 2, 4096);
  Status st = a.add(2, chunk_of(state, 1, 4096));
  EXPECT_FALSE(st.is_ok());
  EXPECT_NE(st.message().find("chunk 2 of a state in 2 chunks"), std::string::npos) << st.message();
  EXPECT_FALSE(a.add(0xffffffffu, {}).is_ok());
  EXPECT_FALSE(a.complete());
}

TEST(StateAssemblerTest, MoreChunksThanTheStateNeedsTakeOnlyEmptyPieces) {
  // An offer announcing more chunks than the size needs (a peer with another chunk size): the
  // extra chunks can only be empty, so the state cannot grow past what was announced.
  const auto state = pattern(100);
  StateAssembler a(state.size(), 3, 4096);
  const std::vector<std::uint8_t> extra(10);
  EXPECT_FALSE(a.add(1, extra).is_ok());
  ASSERT_TRUE(a.add(0, state).is_ok());
  ASSERT_TRUE(a.add(1, {}).is_ok());
  ASSERT_TRUE(a.add(2, {}).is_ok());
  ASSERT_TRUE(a.complete());
  EXPECT_EQ(a.take().flatten(), state);
}

TEST(StateAssemblerTest, DefaultChunkSizeRoundTripOfALargeState) {
  const auto state = pattern(3 * kDefaultChunkBytes + 12345);
  const std::uint32_t n = chunk_count(state.size(), kDefaultChunkBytes);
  ASSERT_EQ(n, 4u);
  StateAssembler a(state.size(), n, kDefaultChunkBytes);
  for (std::uint32_t i = n; i-- > 0;) {
    ASSERT_TRUE(a.add(i, chunk_of(state, i, kDefaultChunkBytes)).is_ok());
  }
  ASSERT_TRUE(a.complete());
  EXPECT_EQ(a.take().flatten(), state);
}

TEST(StateAssemblerTest, KeepsOwnedPiecesWithoutACopy) {
  auto state = std::make_shared<const std::vector<std::uint8_t>>(pattern(3 * 4096 + 1));
  const std::uint32_t n = chunk_count(state->size(), 4096);
  StateAssembler a(state->size(), n, 4096);
  for (std::uint32_t i = 0; i < n; ++i) {
    ASSERT_TRUE(a.add(i, chunk_of(*state, i, 4096), state).is_ok()) << i;
  }
  const StatePieces pieces = a.take();
  ASSERT_EQ(pieces.spans().size(), n);
  EXPECT_EQ(pieces.size(), state->size());
  for (std::uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(pieces.spans()[i].data(), state->data() + std::size_t{i} * 4096) << i;
  }
  EXPECT_EQ(pieces.flatten(), *state);
}

TEST(StateAssemblerTest, CopiesPiecesWithoutAnOwner) {
  auto state = pattern(5000);
  StateAssembler a(state.size(), 2, 4096);
  ASSERT_TRUE(a.add(0, chunk_of(state, 0, 4096)).is_ok());
  ASSERT_TRUE(a.add(1, chunk_of(state, 1, 4096)).is_ok());
  const auto expected = state;
  std::fill(state.begin(), state.end(), 0);  // the caller's buffer is reused
  EXPECT_EQ(a.take().flatten(), expected);
}

}  // namespace
}  // namespace drift
