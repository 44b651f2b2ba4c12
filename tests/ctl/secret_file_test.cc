// secret_file: reading and creating the cluster secret.
#include "ctl/secret_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

namespace drift::ctl {
namespace {

namespace fs = std::filesystem;

class SecretFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "drift-secret-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(SecretFileTest, TrailingWhitespaceIsTrimmed) {
  std::ofstream(dir_ / "s") << "  abc def \n\r\t\n";
  auto secret = read_secret_file(dir_ / "s");
  ASSERT_TRUE(secret.is_ok()) << secret.error();
  EXPECT_EQ(std::string(secret->begin(), secret->end()), "  abc def");
}

TEST_F(SecretFileTest, MissingAndEmptyFilesAreNamed) {
  auto missing = read_secret_file(dir_ / "nope");
  ASSERT_FALSE(missing.is_ok());
  EXPECT_NE(missing.error().find("nope"), std::string::npos);
  std::ofstream(dir_ / "empty") << " \n";
  auto empty = read_secret_file(dir_ / "empty");
  ASSERT_FALSE(empty.is_ok());
  EXPECT_NE(empty.error().find("empty"), std::string::npos);
}

TEST_F(SecretFileTest, CreatedOnceWithModeSixHundredThenReused) {
  ASSERT_TRUE(ensure_secret_file(dir_ / "secret").is_ok());
  auto first = read_secret_file(dir_ / "secret");
  ASSERT_TRUE(first.is_ok());
  EXPECT_EQ(first->size(), 64u);  // 32 bytes, hex
  struct stat st {};
  ASSERT_EQ(::stat((dir_ / "secret").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_TRUE(ensure_secret_file(dir_ / "secret").is_ok());
  EXPECT_EQ(read_secret_file(dir_ / "secret").value(), first.value());
}

}  // namespace
}  // namespace drift::ctl
