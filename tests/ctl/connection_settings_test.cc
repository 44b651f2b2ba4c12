// connection_settings: what a failure to set up a connection exits with, before any daemon.
#include "ctl/connection_settings.h"

#include <gtest/gtest.h>

#include "ctl/exit_codes.h"

namespace drift::ctl {
namespace {

ConnectionSettings missing_default_secret() {
  ConnectionSettings s;
  s.secret_file = "/nonexistent/drift-local/secret";
  return s;
}

TEST(ConnectionSettingsTest, OnlyTheDefaultSecretMissingIsANoClusterToReach) {
  const auto s = missing_default_secret();
  const auto options = s.connect_options();
  ASSERT_FALSE(options.is_ok());
  EXPECT_NE(options.error().find("driftctl local up"), std::string::npos) << options.error();
  EXPECT_EQ(s.connect_failure_exit(), kExitConnection);
}

TEST(ConnectionSettingsTest, ASecretFileThePersonNamedAndCannotBeReadIsAUsageError) {
  auto s = missing_default_secret();
  s.secret_origin = "--secret-file";
  const auto options = s.connect_options();
  ASSERT_FALSE(options.is_ok());
  EXPECT_NE(options.error().find("/nonexistent/drift-local/secret"), std::string::npos)
      << options.error();
  EXPECT_NE(options.error().find("from --secret-file"), std::string::npos) << options.error();
  EXPECT_EQ(s.connect_failure_exit(), kExitUsage);
}

TEST(ConnectionSettingsTest, AMissingTokenFileOrABadNodeIsAUsageError) {
  auto token = missing_default_secret();
  token.token_file = "/nonexistent/token";
  token.token_origin = "--token-file";
  ASSERT_FALSE(token.connect_options().is_ok());
  EXPECT_EQ(token.connect_failure_exit(), kExitUsage);

  auto node = missing_default_secret();
  node.node = "no-port-here";
  node.node_origin = "--node";
  ASSERT_FALSE(node.connect_options().is_ok());
  EXPECT_EQ(node.connect_failure_exit(), kExitUsage);
}

}  // namespace
}  // namespace drift::ctl
