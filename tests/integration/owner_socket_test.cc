// The owner's local socket (node/owner/owner_socket.h), through driftctl as people at the PC use
// it: root sees the status; a user named in owner.users reclaims and releases the PC with no
// secret or token, and the daemon logs who; a user who is neither root, in the owner group nor
// listed is refused (exit 4, said why). Needs root (to act as other users).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/driftctl_process.h"
#include "tests/integration/poll.h"

namespace fs = std::filesystem;

namespace drift::test {
namespace {

using namespace std::chrono_literals;

TEST_F(ClusterTest, ThePersonAtThePcReclaimsItThroughTheOwnerSocket) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run driftctl as other users";
  // A directory other users may reach (the test's own is private).
  std::string pattern = "/tmp/drift-owner-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
  const fs::path shared = pattern;
  fs::permissions(shared, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  const std::string socket = (shared / "driftd.sock").string();
  // The build's driftctl may be where other users cannot reach it (a private CI checkout).
  const std::string exe = (shared / "driftctl").string();
  fs::copy_file(bin_dir() / "driftctl", exe);
  fs::permissions(exe, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec |
                           fs::perms::group_read | fs::perms::others_read);
  ctl::LocalClusterOptions options;
  options.driftd = bin_dir() / "driftd";
  options.stop_with_parent = true;
  options.extra_args = {"--owner.socket=" + socket, "--owner.users=nobody",
                        "--owner.group=drift-no-such-group"};
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
  ASSERT_NO_FATAL_FAILURE(start_cluster(1, 41));
  const std::string at = "--owner-socket " + socket + " ";

  const auto status = driftctl(at + "status");
  EXPECT_EQ(status.exit_code, 0) << status.out;
  EXPECT_NE(status.out.find("node1"), std::string::npos) << status.out;

  const auto stranger = driftctl_as("daemon", at + "reclaim", exe);
  EXPECT_EQ(stranger.exit_code, 4) << stranger.out;
  EXPECT_NE(stranger.out.find("user daemon may not use this PC's owner socket"), std::string::npos)
      << stranger.out;

  const auto reclaim = driftctl_as("nobody", at + "reclaim", exe);
  EXPECT_EQ(reclaim.exit_code, 0) << reclaim.out;
  EXPECT_NE(reclaim.out.find("reclaimed"), std::string::npos) << reclaim.out;
  EXPECT_TRUE(poll_until(3s, 50ms, [&] {
    return log_of(1).find("nobody (at this PC) asked it to reclaim") != std::string::npos;
  })) << "the daemon did not log who reclaimed";
  const auto release = driftctl_as("nobody", at + "release", exe);
  EXPECT_EQ(release.exit_code, 0) << release.out;
  EXPECT_NE(release.out.find("available"), std::string::npos) << release.out;

  cluster_->down();
  EXPECT_FALSE(fs::exists(socket)) << "the socket outlived its daemon";
  std::error_code ec;
  fs::remove_all(shared, ec);
}

}  // namespace
}  // namespace drift::test
