// Kernel text files kept open and read again (ProcFile), and readings kept for a period (Sampled).
#include "node/machine/proc_file.h"
#include "node/machine/sampled.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace drift {
namespace {

class ProcFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() /
            ("drift-proc-file-" + std::to_string(::getpid()));
  }
  void TearDown() override { std::filesystem::remove(path_); }
  void write(const std::string& text) { std::ofstream(path_, std::ios::trunc) << text; }

  std::filesystem::path path_;
};

TEST_F(ProcFileTest, ReadsTheWholeFileAgainAtEveryRead) {
  write("first\n");
  ProcFile file(path_.string());
  auto text = file.read();
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "first\n");
  // Rewritten in place (the same inode, as the kernel regenerates its files): the open file
  // reads the new text from its start, and nothing of the old, longer one is left.
  write("2nd\n");
  text = file.read();
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "2nd\n");
}

TEST_F(ProcFileTest, ReadsFilesLongerThanOnePageAndStopsAtItsLimit) {
  const std::string big(10000, 'x');
  write(big);
  ProcFile file(path_.string());
  auto text = file.read();
  ASSERT_TRUE(text);
  EXPECT_EQ(text->size(), big.size());
  auto some = read_text(path_.string(), 100);
  ASSERT_TRUE(some);
  EXPECT_EQ(*some, big.substr(0, 100));
}

TEST_F(ProcFileTest, AMissingFileIsNothingUntilItExists) {
  ProcFile file(path_.string());
  EXPECT_FALSE(file.read());
  EXPECT_FALSE(read_text(path_.string()));
  write("now\n");
  auto text = file.read();
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "now\n");
}

TEST(ProcFile, ReadsTheKernelsFilesFresh) {
  ProcFile file("/proc/self/schedstat");
  auto first = file.read();
  if (!first) GTEST_SKIP() << "this kernel has no /proc/self/schedstat";
  const std::string before(*first);
  volatile unsigned long sink = 0;
  for (unsigned long i = 0; i < 50'000'000; ++i) sink = sink + i;
  auto after = file.read();
  ASSERT_TRUE(after);
  EXPECT_NE(*after, before);  // the CPU time grew: the kernel wrote the file again
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
