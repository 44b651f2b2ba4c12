// The fixture of driftd's config tests (config_test.cc, config_sections_test.cc): a temporary
// directory with a cluster secret, and parsing of a config file plus command-line arguments with
// the error checked to be one line that names the key, its value and where it came from.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "node/config/config.h"

namespace drift::testing_config {

namespace fs = std::filesystem;

class ConfigTest : public testing::Test {
 protected:
  void SetUp() override {
    const auto* test = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("drift-config-test-" + std::to_string(::getpid()) + "-" + test->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("secret", "0123456789abcdef-cluster-secret\n\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static std::variant<NodeConfig, ConfigHelp, ConfigError> parse(std::vector<std::string> args) {
    args.insert(args.begin(), "driftd");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    return parse_driftd_args(static_cast<int>(argv.size()), argv.data());
  }

  // Parses a config file with `text` plus extra command-line arguments.
  std::variant<NodeConfig, ConfigHelp, ConfigError> parse_file(
      const std::string& text, std::vector<std::string> extra = {}) {
    extra.insert(extra.begin(), {"--config", write("n.conf", text)});
    return parse(extra);
  }

  static NodeConfig config_of(const std::variant<NodeConfig, ConfigHelp, ConfigError>& r) {
    if (auto* e = std::get_if<ConfigError>(&r)) ADD_FAILURE() << e->message;
    if (!std::holds_alternative<NodeConfig>(r)) return {};
    return std::get<NodeConfig>(r);
  }

  // The error, checked to be one line starting "driftd: " and to contain every `needle`.
  static std::string error_of(const std::variant<NodeConfig, ConfigHelp, ConfigError>& r,
                              std::initializer_list<std::string> needles) {
    const auto* e = std::get_if<ConfigError>(&r);
    if (!e) {
      ADD_FAILURE() << "expected an error";
      return {};
    }
    EXPECT_EQ(e->message.rfind("driftd: ", 0), 0u) << e->message;
    EXPECT_EQ(e->message.find('\n'), std::string::npos) << e->message;
    for (const auto& n : needles) EXPECT_NE(e->message.find(n), std::string::npos) << e->message;
    return e->message;
  }

  std::string at(int line) const { return path("n.conf") + ":" + std::to_string(line); }

  fs::path dir_;
};

const char* const kMinimal = "[node]\nid = 1\n[cluster]\nsecret_file = secret\n";

}  // namespace drift::testing_config
