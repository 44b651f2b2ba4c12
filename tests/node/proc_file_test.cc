// Kernel text files read with plain system calls (read_text), and readings kept for a period
// (Sampled).
#include "node/machine/proc_file.h"
#include "node/machine/sampled.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace drift {
namespace {

class ReadTextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() /
            ("drift-read-text-" + std::to_string(::getpid()));
  }
  void TearDown() override { std::filesystem::remove(path_); }
  void write(const std::string& text) { std::ofstream(path_, std::ios::trunc) << text; }

  std::filesystem::path path_;
};

TEST_F(ReadTextTest, ReadsFilesLongerThanOnePageAndStopsAtItsLimit) {
  const std::string big(10000, 'x');
  write(big);
  auto text = read_text(path_.string());
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, big);
  auto some = read_text(path_.string(), 100);
  ASSERT_TRUE(some);
  EXPECT_EQ(*some, big.substr(0, 100));
}

TEST_F(ReadTextTest, AMissingFileIsNothing) {
  EXPECT_FALSE(read_text(path_.string()));
  write("now\n");
  auto text = read_text(path_.string());
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "now\n");
}

TEST(ReadText, ReadsTheKernelsFilesFresh) {
  auto first = read_text("/proc/self/schedstat");
  if (!first) GTEST_SKIP() << "this kernel has no /proc/self/schedstat";
  volatile unsigned long sink = 0;
  for (unsigned long i = 0; i < 50'000'000; ++i) sink = sink + i;
  auto after = read_text("/proc/self/schedstat");
  ASSERT_TRUE(after);
  EXPECT_NE(*after, *first);  // the CPU time grew
}

TEST(Sampled, ReadsAgainOnlyWhenTheLastReadingIsOlderThanThePeriod) {
  using std::chrono::milliseconds;
  int reads = 0;
  Sampled<int> value(milliseconds(500), [&reads] { return ++reads; });
  const Sampled<int>::Clock::time_point t0{std::chrono::seconds(100)};
  EXPECT_EQ(value.get(t0), 1);
  EXPECT_EQ(value.get(t0 + milliseconds(100)), 1);
  EXPECT_EQ(value.get(t0 + milliseconds(499)), 1);
  EXPECT_EQ(value.get(t0 + milliseconds(500)), 2);
  EXPECT_EQ(value.get(t0 + milliseconds(900)), 2);
  EXPECT_EQ(value.get(t0 + milliseconds(1000)), 3);
  EXPECT_EQ(reads, 3);
}

}  // namespace
}  // namespace drift
