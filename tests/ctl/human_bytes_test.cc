// human_bytes: binary units, one decimal, never "1024.0 KiB".
#include "ctl/human_bytes.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

TEST(HumanBytesTest, PicksTheLargestUnitAtLeastOne) {
  EXPECT_EQ(human_bytes(0), "0 B");
  EXPECT_EQ(human_bytes(1023), "1023 B");
  EXPECT_EQ(human_bytes(1024), "1.0 KiB");
  EXPECT_EQ(human_bytes(1536), "1.5 KiB");
  EXPECT_EQ(human_bytes(64ull << 20), "64.0 MiB");
  EXPECT_EQ(human_bytes(3ull << 30), "3.0 GiB");
}

TEST(HumanBytesTest, RoundingNeverShowsAFullUnit) {
  EXPECT_EQ(human_bytes((1ull << 20) - 1), "1.0 MiB");
  EXPECT_EQ(human_bytes(~std::uint64_t{0}), "16.0 EiB");
}

}  // namespace
}  // namespace drift::ctl
