// apps/common/digest: fixed values (the same on every platform), order sensitivity, filler.
#include "apps/common/digest.h"

#include <gtest/gtest.h>

namespace drift::apps {
namespace {

TEST(Digest, KnownValues) {
  EXPECT_EQ(mix64(0), 0u);
  EXPECT_EQ(mix64(1), 0x5692161d100b05e5ULL);  // splitmix64's finalizer
  SplitMix64 rng(0);
  EXPECT_EQ(rng.next(), 0xe220a8397b1dcdafULL);  // the reference sequence from seed 0
  EXPECT_EQ(format_hex16(0xabcULL), "0000000000000abc");
}

TEST(Digest, OrderAndLengthMatter) {
  EXPECT_NE(hash_words({1, 2}), hash_words({2, 1}));
  EXPECT_NE(hash_words({0}), hash_words({0, 0}));
  const std::vector<std::uint8_t> a{1, 2, 3}, b{1, 2, 3, 0};
  EXPECT_NE(Digest().add_bytes(a).value(), Digest().add_bytes(b).value());
  EXPECT_EQ(Digest().add_bytes(a).value(), Digest().add_bytes(a).value());
}

TEST(Digest, FillerIsDeterministicAndSeeded) {
  EXPECT_EQ(filler_bytes(5, 13), filler_bytes(5, 13));
  EXPECT_NE(filler_bytes(5, 13), filler_bytes(6, 13));
  const auto long_one = filler_bytes(5, 20);
  EXPECT_EQ(std::vector<std::uint8_t>(long_one.begin(), long_one.begin() + 13),
            filler_bytes(5, 13));
  EXPECT_TRUE(filler_bytes(5, 0).empty());
}

}  // namespace
}  // namespace drift::apps
