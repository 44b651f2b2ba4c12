// A credentials file readable by every user is warned of, naming it, its mode and the fix; one
// only its owner and group may read, or one that is not there, is not.
#include "node/config/secret_exposure.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace drift {
namespace {

class SecretExposureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "drift-exposure-XXXXXX");
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    file_ = (dir_ / "secret").string();
    std::ofstream(file_) << "0123456789abcdef0123456789abcdef\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  std::string file_;
};

TEST_F(SecretExposureTest, ReadableByEveryoneIsWarnedOfWithTheFileItsModeAndTheFix) {
  ASSERT_EQ(::chmod(file_.c_str(), 0644), 0);
  const auto warning = exposure_warning(file_, "cluster.secret_file");
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("cluster.secret_file '" + file_ + "'"), std::string::npos) << *warning;
  EXPECT_NE(warning->find("mode 0644"), std::string::npos) << *warning;
  EXPECT_NE(warning->find("chmod o-rwx '" + file_ + "'"), std::string::npos) << *warning;
}

TEST_F(SecretExposureTest, OwnerAndGroupOnlyOrNoFileIsNotWarnedOf) {
  ASSERT_EQ(::chmod(file_.c_str(), 0600), 0);
  EXPECT_FALSE(exposure_warning(file_, "token file").has_value());
  ASSERT_EQ(::chmod(file_.c_str(), 0640), 0);  // the package's root:drift secret
  EXPECT_FALSE(exposure_warning(file_, "token file").has_value());
  EXPECT_FALSE(exposure_warning((dir_ / "absent").string(), "token file").has_value());
  EXPECT_FALSE(exposure_warning("", "token file").has_value());
}

}  // namespace
}  // namespace drift
