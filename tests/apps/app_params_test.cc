// apps/common/app_params: strict numbers, byte suffixes, ranges, unknown keys; every error names
// the app, the key and the value.
#include "apps/common/app_params.h"

#include <gtest/gtest.h>

namespace drift::apps {
namespace {

JobSpec spec_with(std::map<std::string, std::string> params) {
  return JobSpec{"demo", 0, 0, std::move(params), {}};
}

TEST(AppParams, UnknownKeyListsKnownOnes) {
  auto p = AppParams::read("demo", spec_with({{"fanuot", "3"}}), {"fanout", "work"});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error(), "demo: unknown parameter 'fanuot' = '3' (demo knows: fanout, work)");
}

TEST(AppParams, NumbersAreStrictAndRangeChecked) {
  const JobSpec spec = spec_with({{"n", "12"}, {"bad", "1x"}, {"big", "99"}});
  auto p = AppParams::read("demo", spec, {"n", "bad", "big"});
  ASSERT_TRUE(p);
  EXPECT_EQ(*p->number("n", 0, {1, 20}), 12u);
  EXPECT_EQ(*p->number("absent", 5, {1, 20}), 5u);
  EXPECT_EQ(p->number("bad", 0, {1, 20}).error(),
            "demo: bad = '1x': expected a whole number from 1 to 20");
  EXPECT_EQ(p->number("big", 0, {1, 20}).error(),
            "demo: big = '99': expected a whole number from 1 to 20");
  for (const char* text : {"", "-1", "+1", " 1", "1 ", "0x10", "99999999999999999999999"}) {
    const JobSpec s = spec_with({{"n", text}});
    EXPECT_FALSE(AppParams::read("demo", s, {"n"})->number("n", 0, {})) << "'" << text << "'";
  }
}

TEST(AppParams, BytesTakeSuffixes) {
  const JobSpec spec = spec_with({{"a", "64M"}, {"b", "3K"}, {"c", "1G"}, {"d", "100"}});
  auto p = AppParams::read("demo", spec, {"a", "b", "c", "d"});
  ASSERT_TRUE(p);
  EXPECT_EQ(*p->bytes("a", 0, {}), 64u << 20);
  EXPECT_EQ(*p->bytes("b", 0, {}), 3u << 10);
  EXPECT_EQ(*p->bytes("c", 0, {}), 1u << 30);
  EXPECT_EQ(*p->bytes("d", 0, {}), 100u);
  EXPECT_EQ(p->bytes("a", 0, {8, 1u << 20}).error(),
            "demo: a = '64M': expected a byte count (e.g. 4096, 64K, 1M) from 8 to 1M");
  for (const char* text : {"M", "1k", "1MB", "1.5M", "16777216T", "99999999999G"}) {
    const JobSpec s = spec_with({{"n", text}});
    EXPECT_FALSE(AppParams::read("demo", s, {"n"})->bytes("n", 0, {})) << "'" << text << "'";
  }
}

TEST(AppParams, SpecCounts) {
  EXPECT_EQ(*spec_count("demo", "tasks", 0, 8, {2, 10}), 8u);
  EXPECT_EQ(*spec_count("demo", "tasks", 3, 8, {2, 10}), 3u);
  EXPECT_EQ(spec_count("demo", "tasks", 1, 8, {2, 10}).error(),
            "demo: tasks = 1: expected from 2 to 10");
  EXPECT_EQ(spec_count("demo", "steps", 0, 0, {1, UINT64_MAX}).error(),
            "demo: steps = 0: expected at least 1");
}

TEST(AppParams, FormatBytes) {
  EXPECT_EQ(format_bytes(0), "0");
  EXPECT_EQ(format_bytes(1536), "1536");
  EXPECT_EQ(format_bytes(2048), "2K");
  EXPECT_EQ(format_bytes(64u << 20), "64M");
  EXPECT_EQ(format_bytes(1u << 30), "1G");
}

}  // namespace
}  // namespace drift::apps
