// StateWriter cuts what an archive writes into pieces of the chunk size (after `front` free
// bytes), handing each over as soon as it is full; together they are exactly the archive's
// bytes, as many as chunk_count() says. It refuses to write more or fewer bytes than counted,
// and stops when cancelled. ByteCounter counts the same bytes.
#include "migration/state_writer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "migration/state_transfer.h"
#include <drift/archives.h>

namespace drift {
namespace {

struct Sample {
  std::uint64_t a = 0;
  std::string s;
  std::vector<std::uint64_t> big;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(a, s, big);
  }
};

Sample sample(std::size_t words) {
  Sample v{42, "state", std::vector<std::uint64_t>(words)};
  for (std::size_t i = 0; i < words; ++i) v.big[i] = i * 0x9e3779b97f4a7c15ULL;
  return v;
}

std::uint64_t counted(const Sample& v) {
  ByteCounter counter;
  PortableOutputArchive ar(counter);
  ar(v);
  return counter.count();
}

struct Emitted {
  std::vector<std::uint32_t> indices;
  std::vector<BufferPool::Ptr> pieces;
};

StateWriter::Emit collect(Emitted& out) {
  return [&out](std::uint32_t index, BufferPool::Ptr piece) {
    out.indices.push_back(index);
    out.pieces.push_back(std::move(piece));
  };
}

TEST(ByteCounterTest, CountsWhatTheArchiveWrites) {
  for (std::size_t words : {0, 1, 1000}) {
    const Sample v = sample(words);
    EXPECT_EQ(counted(v), encode_portable(v).size()) << words;
  }
}

TEST(StateWriterTest, PiecesMakeUpTheArchivesBytes) {
  BufferPool pool(16u << 20);
  constexpr std::uint32_t kPiece = 4096;
  constexpr std::size_t kFront = 45;
  for (std::size_t words : {0, 10, 512, 511 * 3, 100000}) {
    const Sample v = sample(words);
    const std::vector<std::uint8_t> expected = encode_portable(v);
    Emitted out;
    StateWriter writer(pool, kPiece, kFront, counted(v), collect(out));
    {
      PortableOutputArchive ar(writer);
      ar(v);
    }
    writer.finish();
    ASSERT_EQ(out.pieces.size(), chunk_count(expected.size(), kPiece)) << words;
    std::vector<std::uint8_t> joined;
    for (std::size_t i = 0; i < out.pieces.size(); ++i) {
      EXPECT_EQ(out.indices[i], i);
      const auto bytes = out.pieces[i]->bytes();
      ASSERT_GE(bytes.size(), kFront);
      if (i + 1 < out.pieces.size()) {
        EXPECT_EQ(bytes.size(), kFront + kPiece);
      }
      joined.insert(joined.end(), bytes.begin() + kFront, bytes.end());
    }
    EXPECT_EQ(joined, expected) << words;
  }
}

TEST(StateWriterTest, EmitsEachPieceAsSoonAsItIsFull) {
  BufferPool pool(1u << 20);
  Emitted out;
  StateWriter writer(pool, 4, 0, 10, collect(out));
  const char bytes[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  writer.sputn(bytes, 3);
  EXPECT_TRUE(out.pieces.empty());
  writer.sputn(bytes + 3, 2);
  EXPECT_EQ(out.pieces.size(), 1u);
  writer.sputn(bytes + 5, 5);  // completes piece 1 and the short last piece
  EXPECT_EQ(out.pieces.size(), 3u);
  writer.finish();
  EXPECT_EQ(out.pieces.size(), 3u);
  EXPECT_EQ(out.pieces[2]->size, 2u);
}

TEST(StateWriterTest, AnEmptyStateIsOneEmptyPiece) {
  BufferPool pool(1u << 20);
  Emitted out;
  StateWriter writer(pool, 4096, 45, 0, collect(out));
  writer.finish();
  ASSERT_EQ(out.pieces.size(), 1u);
  EXPECT_EQ(out.pieces[0]->size, 45u);
}

TEST(StateWriterTest, RefusesMoreOrFewerBytesThanCounted) {
  BufferPool pool(1u << 20);
  Emitted out;
  const char bytes[8] = {};
  StateWriter more(pool, 4, 0, 6, collect(out));
  more.sputn(bytes, 4);
  EXPECT_THROW(more.sputn(bytes, 4), std::runtime_error);
  StateWriter fewer(pool, 4, 0, 6, collect(out));
  fewer.sputn(bytes, 5);
  EXPECT_THROW(fewer.finish(), std::runtime_error);
}

TEST(StateWriterTest, StopsWhenCancelled) {
  BufferPool pool(1u << 20);
  Emitted out;
  std::atomic<bool> cancelled{false};
  const char bytes[8] = {};
  StateWriter writer(pool, 4, 0, 16, collect(out), &cancelled);
  writer.sputn(bytes, 4);
  EXPECT_EQ(out.pieces.size(), 1u);
  cancelled = true;
  EXPECT_THROW(writer.sputn(bytes, 4), std::runtime_error);
  EXPECT_EQ(out.pieces.size(), 1u);
}

}  // namespace
}  // namespace drift
