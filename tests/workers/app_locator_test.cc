// app_locator: application names, the apps path (configured, $DRIFT_APPS_PATH, or beside the
// program), and finding and listing applications' executables on it.
#include "node/workers/app_locator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tests/workers/temp_dir.h"

namespace drift {
namespace {

namespace fs = std::filesystem;

// Sets (or unsets, with nullopt) $DRIFT_APPS_PATH for one test and puts back what was there.
class AppsPathEnv {
 public:
  explicit AppsPathEnv(const std::optional<std::string>& value) {
    if (const char* old = std::getenv(kName)) saved_ = old;
    if (value) {
      ::setenv(kName, value->c_str(), 1);
    } else {
      ::unsetenv(kName);
    }
  }
  ~AppsPathEnv() {
    if (saved_) {
      ::setenv(kName, saved_->c_str(), 1);
    } else {
      ::unsetenv(kName);
    }
  }
  AppsPathEnv(const AppsPathEnv&) = delete;
  AppsPathEnv& operator=(const AppsPathEnv&) = delete;

 private:
  static constexpr const char* kName = "DRIFT_APPS_PATH";
  std::optional<std::string> saved_;
};

std::string make_dir(const test::TempDir& root, const std::string& name) {
  fs::create_directories(root / name);
  return root / name;
}

std::string executable(const std::string& dir, const std::string& name) {
  return test::write_file(dir + "/" + name, std::string("#!/bin/sh\n"), 0755);
}

TEST(ValidAppName, TakesLettersDigitsDotsUnderscoresAndDashes) {
  for (const char* name : {"heat2d", "a", "my_app-2.1", "Particles", "x.y"}) {
    EXPECT_TRUE(valid_app_name(name)) << name;
  }
  EXPECT_TRUE(valid_app_name(std::string(128, 'a')));
}

TEST(ValidAppName, RefusesPathsHiddenNamesAndOtherCharacters) {
  for (const char* name : {"", ".", "..", ".hidden", "a/b", "/bin/sh", "../heat2d", "a b",
                           "heat2d;rm", "app\n", "caf\xc3\xa9"}) {
    EXPECT_FALSE(valid_app_name(name)) << "'" << name << "'";
  }
  EXPECT_FALSE(valid_app_name(std::string(129, 'a')));
}

TEST(FindApp, ReturnsTheFirstExecutableOfThatNameInPathOrder) {
  test::TempDir root;
  const std::string first = make_dir(root, "first");
  const std::string second = make_dir(root, "second");
  const std::string third = make_dir(root, "third");
  executable(second, "heat2d");
  executable(third, "heat2d");
  auto found = find_app("heat2d", {first, second, third});
  ASSERT_TRUE(found) << found.error();
  EXPECT_EQ(*found, second + "/heat2d");
  auto reversed = find_app("heat2d", {third, second, first});
  ASSERT_TRUE(reversed) << reversed.error();
  EXPECT_EQ(*reversed, third + "/heat2d");
}

TEST(FindApp, SkipsAFileThatIsNotExecutableAndADirectory) {
  test::TempDir root;
  const std::string plain = make_dir(root, "plain");
  const std::string dirs = make_dir(root, "dirs");
  const std::string good = make_dir(root, "good");
  test::write_file(plain + "/heat2d", std::string("#!/bin/sh\n"), 0644);
  fs::create_directory(dirs + "/heat2d");  // searchable, so "executable", but no file
  executable(good, "heat2d");
  auto found = find_app("heat2d", {plain, dirs, good});
  ASSERT_TRUE(found) << found.error();
  EXPECT_EQ(*found, good + "/heat2d");
  auto none = find_app("heat2d", {plain, dirs});
  EXPECT_FALSE(none);
}

TEST(FindApp, SaysWhereItLooked) {
  test::TempDir root;
  const std::string a = make_dir(root, "a");
  const std::string b = root / "missing";
  auto found = find_app("heat2d", {a, b});
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error(), "no application 'heat2d' in the apps path (" + a + ", " + b + ")");
  auto empty = find_app("heat2d", {});
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error(), "no application 'heat2d' in the apps path (empty)");
}

TEST(FindApp, RefusesNamesThatAreNotPlainEvenWhenSuchAFileExists) {
  test::TempDir root;
  const std::string apps = make_dir(root, "apps");
  const std::string sub = make_dir(root, "apps/sub");
  executable(apps, ".hidden");
  executable(sub, "tool");
  executable(root.path(), "outside");
  for (const char* name : {".hidden", "sub/tool", "../outside", "..", "/bin/sh"}) {
    auto found = find_app(name, {apps});
    ASSERT_FALSE(found) << name << " found at " << found.value();
    EXPECT_NE(found.error().find("is not an application name"), std::string::npos)
        << found.error();
  }
}

TEST(AppsPath, AConfiguredPathIsUsedAsItIs) {
  AppsPathEnv env(std::string("/from/env"));
  const std::vector<std::string> configured{"/opt/apps", "relative/apps"};
  EXPECT_EQ(apps_path(configured, "/usr/bin/driftd"), configured);
}

TEST(AppsPath, TheEnvironmentIsSplitOnColonsSkippingEmptyParts) {
  AppsPathEnv env(std::string("/a/apps::/b/apps:rel:"));
  EXPECT_EQ(apps_path({}, "/usr/bin/driftd"),
            (std::vector<std::string>{"/a/apps", "/b/apps", "rel"}));
}

TEST(AppsPath, ASingleDirectoryInTheEnvironment) {
  AppsPathEnv env(std::string("/only"));
  EXPECT_EQ(apps_path({}, "/usr/bin/driftd"), std::vector<std::string>{"/only"});
}

TEST(AppsPath, WithoutConfigurationItIsLibDriftAppsBesideTheProgramsDirectory) {
  AppsPathEnv env(std::nullopt);
  EXPECT_EQ(apps_path({}, "/opt/drift/bin/driftd"),
            std::vector<std::string>{"/opt/drift/lib/drift/apps"});
}

TEST(AppsPath, AnEmptyEnvironmentVariableCountsAsUnset) {
  AppsPathEnv env(std::string(""));
  EXPECT_EQ(apps_path({}, "/usr/bin/driftctl"), std::vector<std::string>{"/usr/lib/drift/apps"});
}

TEST(AppsPath, WithoutASelfExeItIsBesideThisProgram) {
  AppsPathEnv env(std::nullopt);
  const fs::path self = fs::read_symlink("/proc/self/exe");
  EXPECT_EQ(apps_path({}),
            std::vector<std::string>{(self.parent_path().parent_path() / "lib/drift/apps").string()});
}

TEST(ListApps, ListsEachExecutableOnceByNameTheFirstOneWinning) {
  test::TempDir root;
  const std::string first = make_dir(root, "first");
  const std::string second = make_dir(root, "second");
  executable(first, "heat2d");
  executable(second, "heat2d");
  executable(second, "particles");
  executable(first, ".hidden");
  test::write_file(first + "/README", std::string("not an app"), 0644);
  fs::create_directory(first + "/subdir");
  const auto apps = list_apps({first, root / "missing", second});
  EXPECT_EQ(apps, (std::vector<std::pair<std::string, std::string>>{
                      {"heat2d", first + "/heat2d"}, {"particles", second + "/particles"}}));
}

TEST(ListApps, AnEmptyPathListsNothing) { EXPECT_TRUE(list_apps({}).empty()); }

}  // namespace
}  // namespace drift
