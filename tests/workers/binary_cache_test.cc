// BinaryCache: executables arrive in checked pieces, are kept (mode 0755) only under the SHA-256
// of their bytes, are found by it, and the least recently used go when the cache is too big.
#include "node/workers/binary_cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "node/workers/sha256.h"
#include "tests/workers/temp_dir.h"

namespace drift {
namespace {

namespace fs = std::filesystem;
using Incoming = BinaryCache::Incoming;

constexpr std::uint64_t kCacheMax = 1 << 20;
constexpr std::uint64_t kBinaryMax = 64 << 10;

std::vector<std::uint8_t> program_bytes(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(seed + i * 13 + i / 7);
  return out;
}

std::string sha_of_bytes(const std::vector<std::uint8_t>& bytes) {
  Sha256 h;
  h.add(bytes);
  return h.hex();
}

std::span<const std::uint8_t> slice(const std::vector<std::uint8_t>& bytes, std::size_t at,
                                    std::size_t n) {
  return std::span<const std::uint8_t>(bytes).subspan(at, n);
}

std::vector<std::uint8_t> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::set<std::string> names_in(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

// Stores `bytes` whole under their hash; the kept path.
std::string store(BinaryCache& cache, const std::vector<std::uint8_t>& bytes) {
  auto in = cache.begin(sha_of_bytes(bytes), bytes.size());
  if (!in) throw std::runtime_error(in.error());
  if (Status s = (*in)->add(0, bytes); !s) throw std::runtime_error(s.message());
  auto path = cache.finish(std::move(*in));
  if (!path) throw std::runtime_error(path.error());
  return *path;
}

void set_age(const std::string& path, int seconds_ago) {
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(seconds_ago));
}

class BinaryCacheTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(cache_.open()) << "cannot open " << dir_.path(); }

  test::TempDir dir_;
  BinaryCache cache_{dir_.path(), kCacheMax, kBinaryMax};
};

TEST_F(BinaryCacheTest, PiecesInAnyOrderMakeTheExecutableKeptUnderItsHash) {
  const std::vector<std::uint8_t> bytes = program_bytes(10000, 1);
  const std::string sha = sha_of_bytes(bytes);
  auto in = cache_.begin(sha, bytes.size());
  ASSERT_TRUE(in) << in.error();
  EXPECT_EQ((*in)->total(), bytes.size());
  // Last piece first, then the middle, then the start.
  ASSERT_TRUE((*in)->add(7000, slice(bytes, 7000, 3000)));
  EXPECT_FALSE((*in)->complete());
  ASSERT_TRUE((*in)->add(2500, slice(bytes, 2500, 4500)));
  EXPECT_FALSE((*in)->complete());
  ASSERT_TRUE((*in)->add(0, slice(bytes, 0, 2500)));
  EXPECT_TRUE((*in)->complete());
  auto path = cache_.finish(std::move(*in));
  ASSERT_TRUE(path) << path.error();
  EXPECT_EQ(*path, dir_ / sha);
  EXPECT_EQ(read_all(*path), bytes);
  EXPECT_EQ(names_in(dir_.path()), std::set<std::string>{sha});  // no temporary file left
}

TEST_F(BinaryCacheTest, KeptExecutableHasMode0755WhateverTheUmask) {
  const ::mode_t old = ::umask(077);
  auto in = cache_.begin(sha_of_bytes(program_bytes(100, 2)), 100);
  const Status added = in ? (*in)->add(0, program_bytes(100, 2)) : in.status();
  auto kept = in ? cache_.finish(std::move(*in)) : Result<std::string>(in.status());
  ::umask(old);
  ASSERT_TRUE(added) << added.message();
  ASSERT_TRUE(kept) << kept.error();
  const std::string path = *kept;
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0755u);
}

TEST_F(BinaryCacheTest, RefusesAPieceThatOverlapsAnother) {
  const std::vector<std::uint8_t> bytes = program_bytes(100, 3);
  auto in = cache_.begin(sha_of_bytes(bytes), bytes.size());
  ASSERT_TRUE(in) << in.error();
  Incoming& incoming = **in;
  ASSERT_TRUE(incoming.add(10, slice(bytes, 10, 20)));  // [10, 30)
  const Status again = incoming.add(10, slice(bytes, 10, 20));
  ASSERT_FALSE(again);
  EXPECT_NE(again.message().find("overlaps"), std::string::npos) << again.message();
  EXPECT_FALSE(incoming.add(0, slice(bytes, 0, 11)));    // runs into its start
  EXPECT_FALSE(incoming.add(29, slice(bytes, 29, 5)));   // starts inside it
  EXPECT_FALSE(incoming.add(15, slice(bytes, 15, 2)));   // wholly inside it
  EXPECT_FALSE(incoming.add(5, slice(bytes, 5, 40)));    // covers it
  // Pieces that only touch it are taken, and the refused ones counted nothing.
  ASSERT_TRUE(incoming.add(0, slice(bytes, 0, 10)));
  EXPECT_FALSE(incoming.complete());
  ASSERT_TRUE(incoming.add(30, slice(bytes, 30, 70)));
  EXPECT_TRUE(incoming.complete());
  auto path = cache_.finish(std::move(*in));
  ASSERT_TRUE(path) << path.error();
  EXPECT_EQ(read_all(*path), bytes);
}

TEST_F(BinaryCacheTest, RefusesPiecesOutsideTheExecutableAndEmptyOnes) {
  const std::vector<std::uint8_t> bytes = program_bytes(100, 4);
  const std::vector<std::uint8_t> one(1, 0x42);
  auto in = cache_.begin(sha_of_bytes(bytes), bytes.size());
  ASSERT_TRUE(in) << in.error();
  Incoming& incoming = **in;
  const Status past_end = incoming.add(100, one);
  ASSERT_FALSE(past_end);
  EXPECT_EQ(past_end.message(), "a piece of 1 bytes at offset 100 of an executable of 100 bytes");
  EXPECT_FALSE(incoming.add(95, slice(bytes, 0, 6)));  // runs over the end
  EXPECT_FALSE(incoming.add(101, one));
  EXPECT_FALSE(incoming.add(std::numeric_limits<std::uint64_t>::max(), one));
  EXPECT_FALSE(incoming.add(0, {}));
  EXPECT_FALSE(incoming.complete());
  ASSERT_TRUE(incoming.add(0, bytes));
  EXPECT_TRUE(incoming.complete());
  cache_.abandon(std::move(*in));
}

TEST_F(BinaryCacheTest, BeginRefusesAnEmptyOrOversizedExecutableAndABadName) {
  const std::string sha = sha_of_bytes(program_bytes(10, 5));
  auto empty = cache_.begin(sha, 0);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error(), "an empty executable");
  auto too_big = cache_.begin(sha, kBinaryMax + 1);
  ASSERT_FALSE(too_big);
  EXPECT_NE(too_big.error().find("worker.max_binary_bytes"), std::string::npos) << too_big.error();
  EXPECT_NE(too_big.error().find(std::to_string(kBinaryMax + 1)), std::string::npos)
      << too_big.error();
  auto bad_name = cache_.begin("../etc/passwd", 10);
  ASSERT_FALSE(bad_name);
  EXPECT_NE(bad_name.error().find("is not a SHA-256"), std::string::npos) << bad_name.error();
  EXPECT_TRUE(names_in(dir_.path()).empty());  // no temporary file for a refused one

  auto largest = cache_.begin(sha, kBinaryMax);
  ASSERT_TRUE(largest) << largest.error();
  cache_.abandon(std::move(*largest));
}

TEST_F(BinaryCacheTest, BytesHashingToAnotherNameAreRefusedAndRemoved) {
  const std::vector<std::uint8_t> announced = program_bytes(300, 6);
  const std::vector<std::uint8_t> sent = program_bytes(300, 7);
  const std::string sha = sha_of_bytes(announced);
  auto in = cache_.begin(sha, sent.size());
  ASSERT_TRUE(in) << in.error();
  ASSERT_TRUE((*in)->add(0, sent));
  auto path = cache_.finish(std::move(*in));
  ASSERT_FALSE(path);
  EXPECT_EQ(path.error(), "the executable's bytes hash to " + sha_of_bytes(sent) + ", not to " +
                              sha + ": refused");
  EXPECT_TRUE(names_in(dir_.path()).empty());
  EXPECT_FALSE(cache_.find(sha).has_value());
  EXPECT_FALSE(cache_.find(sha_of_bytes(sent)).has_value());
}

TEST_F(BinaryCacheTest, FinishRefusesAnIncompleteExecutableAndRemovesIt) {
  const std::vector<std::uint8_t> bytes = program_bytes(100, 8);
  auto in = cache_.begin(sha_of_bytes(bytes), bytes.size());
  ASSERT_TRUE(in) << in.error();
  ASSERT_TRUE((*in)->add(0, slice(bytes, 0, 99)));
  auto path = cache_.finish(std::move(*in));
  ASSERT_FALSE(path);
  EXPECT_EQ(path.error(), "the executable did not arrive whole");
  EXPECT_TRUE(names_in(dir_.path()).empty());
}

TEST_F(BinaryCacheTest, AbandonRemovesTheTemporaryFile) {
  const std::vector<std::uint8_t> bytes = program_bytes(100, 9);
  auto in = cache_.begin(sha_of_bytes(bytes), bytes.size());
  ASSERT_TRUE(in) << in.error();
  ASSERT_TRUE((*in)->add(0, slice(bytes, 0, 50)));
  EXPECT_EQ(names_in(dir_.path()).size(), 1u);
  cache_.abandon(std::move(*in));
  EXPECT_TRUE(names_in(dir_.path()).empty());
}

TEST_F(BinaryCacheTest, TwoArrivalsOfTheSameExecutableDoNotShareAFile) {
  const std::vector<std::uint8_t> bytes = program_bytes(100, 10);
  const std::string sha = sha_of_bytes(bytes);
  auto first = cache_.begin(sha, bytes.size());
  auto second = cache_.begin(sha, bytes.size());
  ASSERT_TRUE(first) << first.error();
  ASSERT_TRUE(second) << second.error();
  EXPECT_EQ(names_in(dir_.path()).size(), 2u);
  ASSERT_TRUE((*first)->add(0, bytes));
  ASSERT_TRUE((*second)->add(0, bytes));
  cache_.abandon(std::move(*first));
  auto path = cache_.finish(std::move(*second));
  ASSERT_TRUE(path) << path.error();
  EXPECT_EQ(read_all(*path), bytes);
}

TEST_F(BinaryCacheTest, FindReturnsThePathOfKeptExecutablesOnly) {
  const std::vector<std::uint8_t> bytes = program_bytes(100, 11);
  const std::string sha = sha_of_bytes(bytes);
  EXPECT_FALSE(cache_.find(sha).has_value());
  auto in = cache_.begin(sha, bytes.size());
  ASSERT_TRUE(in) << in.error();
  ASSERT_TRUE((*in)->add(0, bytes));
  EXPECT_FALSE(cache_.find(sha).has_value());  // still arriving
  ASSERT_TRUE(cache_.finish(std::move(*in)));
  EXPECT_EQ(cache_.find(sha), dir_ / sha);
  EXPECT_FALSE(cache_.find(sha_of_bytes(program_bytes(100, 12))).has_value());
}

TEST_F(BinaryCacheTest, FindRefusesNamesThatAreNoHash) {
  test::write_file(dir_ / "notes", std::string("x"));
  EXPECT_FALSE(cache_.find("notes").has_value());
  EXPECT_FALSE(cache_.find("").has_value());
  EXPECT_FALSE(cache_.find(".").has_value());
  EXPECT_FALSE(
      cache_.find("../" + fs::path(dir_.path()).filename().string() + "/notes").has_value());
}

TEST_F(BinaryCacheTest, FindMarksTheExecutableUsedNow) {
  const std::string path = store(cache_, program_bytes(100, 13));
  set_age(path, 3600);
  const auto before = fs::last_write_time(path);
  ASSERT_TRUE(cache_.find(fs::path(path).filename().string()).has_value());
  EXPECT_GT(fs::last_write_time(path), before + std::chrono::seconds(3000));
}

TEST(BinaryCacheEvict, DropsTheLeastRecentlyUsedUntilTheCacheFits) {
  test::TempDir dir;
  BinaryCache cache(dir.path(), 250, kBinaryMax);
  ASSERT_TRUE(cache.open());
  const std::string oldest = store(cache, program_bytes(100, 20));
  const std::string middle = store(cache, program_bytes(100, 21));
  const std::string newest = store(cache, program_bytes(100, 22));
  set_age(newest, 100);
  set_age(oldest, 300);
  set_age(middle, 200);
  cache.evict({});
  EXPECT_FALSE(fs::exists(oldest));
  EXPECT_TRUE(fs::exists(middle));
  EXPECT_TRUE(fs::exists(newest));
  EXPECT_FALSE(cache.find(fs::path(oldest).filename().string()).has_value());
}

TEST(BinaryCacheEvict, KeepsEverythingWhenTheCacheFits) {
  test::TempDir dir;
  BinaryCache cache(dir.path(), 200, kBinaryMax);
  ASSERT_TRUE(cache.open());
  const std::string a = store(cache, program_bytes(100, 23));
  const std::string b = store(cache, program_bytes(100, 24));
  cache.evict({});
  EXPECT_TRUE(fs::exists(a));
  EXPECT_TRUE(fs::exists(b));
}

TEST(BinaryCacheEvict, SparesExecutablesInUseEvenWhenTheyAreTheOldest) {
  test::TempDir dir;
  BinaryCache cache(dir.path(), 150, kBinaryMax);
  ASSERT_TRUE(cache.open());
  const std::string oldest = store(cache, program_bytes(100, 25));
  const std::string middle = store(cache, program_bytes(100, 26));
  const std::string newest = store(cache, program_bytes(100, 27));
  set_age(oldest, 300);
  set_age(middle, 200);
  set_age(newest, 100);
  cache.evict({fs::path(oldest).filename().string()});
  EXPECT_TRUE(fs::exists(oldest));
  EXPECT_FALSE(fs::exists(middle));
  EXPECT_FALSE(fs::exists(newest));
}

TEST(BinaryCacheEvict, AFindMakesAnExecutableTheMostRecentlyUsed) {
  test::TempDir dir;
  BinaryCache cache(dir.path(), 250, kBinaryMax);
  ASSERT_TRUE(cache.open());
  const std::string a = store(cache, program_bytes(100, 28));
  const std::string b = store(cache, program_bytes(100, 29));
  const std::string c = store(cache, program_bytes(100, 30));
  set_age(a, 300);
  set_age(b, 200);
  set_age(c, 100);
  ASSERT_TRUE(cache.find(fs::path(a).filename().string()).has_value());
  cache.evict({});
  EXPECT_TRUE(fs::exists(a));
  EXPECT_FALSE(fs::exists(b));
  EXPECT_TRUE(fs::exists(c));
}

TEST(BinaryCacheEvict, LeavesFilesNotNamedByAHashAlone) {
  test::TempDir dir;
  BinaryCache cache(dir.path(), 50, kBinaryMax);
  ASSERT_TRUE(cache.open());
  const std::string other = test::write_file(dir / "notes", std::string(1000, 'x'));
  set_age(other, 1000);
  const std::string kept = store(cache, program_bytes(40, 31));
  cache.evict({});
  EXPECT_TRUE(fs::exists(other));
  EXPECT_TRUE(fs::exists(kept));  // 40 bytes fit; the other file does not count
}

TEST(BinaryCacheOpen, MakesTheDirectoryAndClearsHalfWrittenFilesOnly) {
  test::TempDir root;
  const std::string dir = root / "data/apps";
  {
    BinaryCache cache(dir, kCacheMax, kBinaryMax);
    ASSERT_TRUE(cache.open());
    EXPECT_TRUE(fs::is_directory(dir));
  }
  const std::string sha = sha_of_bytes(program_bytes(10, 32));
  test::write_file(dir + "/.incoming-" + sha + "-123-1", std::string("half"));
  test::write_file(dir + "/.incoming-x", std::string("half"));
  test::write_file(dir + "/" + sha, std::string("kept"), 0755);
  test::write_file(dir + "/.other", std::string("other"));
  BinaryCache cache(dir, kCacheMax, kBinaryMax);
  ASSERT_TRUE(cache.open());
  EXPECT_EQ(names_in(dir), (std::set<std::string>{sha, ".other"}));
}

TEST(BinaryCacheOpen, FailsWhenTheDirectoryCannotBeMade) {
  test::TempDir root;
  const std::string file = test::write_file(root / "file", std::string("x"));
  BinaryCache cache(file + "/apps", kCacheMax, kBinaryMax);
  const Status s = cache.open();
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("cannot make " + file + "/apps"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace drift
