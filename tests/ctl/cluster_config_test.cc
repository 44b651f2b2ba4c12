// cluster_config: the configs `driftctl cluster init | join-config` write, and the command itself
// on files in a temporary directory.
#include "ctl/cluster_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ctl/config_text.h"
#include "ctl/secret_file.h"
#include "tests/ctl/cli_runner.h"

namespace drift::ctl {
namespace {

namespace ct = config_text;

const std::string kInstalled =
    "# As installed: a cluster of one.\n# More notes.\n\n[node]\nid = 1\naddress = 127.0.0.1\n"
    "port = 7400\ndata_dir = /var/lib/drift\n\n[cluster]\nname = office\nsecret_file = "
    "/etc/drift/secret\n# seeds = 192.168.10.3:7400\n\n[membership]\nheartbeat_ms = 300\n";

TEST(ClusterConfigTest, InitSetsTheIdentityAndKeepsTheRest) {
  const std::string text = render_init_config(kInstalled, {1, "192.168.10.3", 0, "ws-3"}, "lab",
                                              "/etc/drift/secret", "# header\n");
  EXPECT_EQ(text.rfind("# header\n\n[node]\n", 0), 0u) << "the installed notes are replaced:\n" << text;
  EXPECT_EQ(ct::get(text, "node.id"), "1");
  EXPECT_EQ(ct::get(text, "node.address"), "192.168.10.3");
  EXPECT_EQ(ct::get(text, "node.port"), "7400");
  EXPECT_EQ(ct::get(text, "node.name"), "ws-3");
  EXPECT_EQ(ct::get(text, "cluster.name"), "lab");
  EXPECT_EQ(ct::get(text, "cluster.seeds"), std::nullopt);
  EXPECT_EQ(ct::get(text, "membership.heartbeat_ms"), "300");
  EXPECT_EQ(ct::get(text, "node.data_dir"), "/var/lib/drift");
}

TEST(ClusterConfigTest, JoinConfigSeedsTheMemberAndItsSeeds) {
  std::string member = render_init_config(kInstalled, {1, "192.168.10.3", 7401, ""}, "office",
                                          "/etc/drift/secret", "# m\n");
  member = ct::set(member, "cluster.seeds", "192.168.10.9:7400, 192.168.10.4:7401");
  auto text = render_join_config(member, {4, "192.168.10.4", 0, ""}, "# j\n");
  ASSERT_TRUE(text) << text.status().message();
  EXPECT_EQ(ct::get(*text, "node.id"), "4");
  EXPECT_EQ(ct::get(*text, "node.address"), "192.168.10.4");
  EXPECT_EQ(ct::get(*text, "node.port"), "7401") << "the member's port";
  EXPECT_EQ(ct::get(*text, "cluster.seeds"), "192.168.10.3:7401, 192.168.10.9:7400")
      << "the member first, its seeds after, never the new node itself";
  EXPECT_EQ(ct::get(*text, "membership.heartbeat_ms"), "300") << "the office's settings travel";
  EXPECT_EQ(text->rfind("# j\n", 0), 0u);
}

TEST(ClusterConfigTest, JoinConfigRefusesTheMembersOwnIdentity) {
  const std::string member = render_init_config(kInstalled, {2, "10.0.0.2", 0, ""}, "office",
                                                "/s", "#\n");
  EXPECT_EQ(render_join_config(member, {2, "10.0.0.5", 0, ""}, "").status().message(),
            "--id 2: the member whose config this is has that id already; every member needs its "
            "own");
  EXPECT_EQ(render_join_config(member, {3, "10.0.0.2", 0, ""}, "").status().message(),
            "--address 10.0.0.2:7400: that is the member's own address");
  EXPECT_FALSE(render_join_config("[node]\nid = 1\n", {3, "10.0.0.3", 0, ""}, ""));
}

class ClusterCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("cluster-command-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "driftd.conf") << kInstalled;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string read(const std::string& name) {
    std::ifstream in(dir_ / name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::filesystem::path dir_;
};

TEST_F(ClusterCommandTest, InitWritesANewSecretAndTheConfigKeepingTheOldOnes) {
  ASSERT_TRUE(ensure_secret_file(dir_ / "secret"));
  const auto old_secret = read_secret_file(dir_ / "secret");
  const auto out = test::run_driftctl("cluster init --config " + (dir_ / "driftd.conf").string() +
                                      " --secret " + (dir_ / "secret").string() +
                                      " --address 10.1.2.3 --id 5 --cluster-name lab");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("new cluster 'lab'"), std::string::npos) << out.out;
  const auto secret = read_secret_file(dir_ / "secret");
  ASSERT_TRUE(secret);
  EXPECT_NE(*secret, *old_secret) << "a new cluster has a new secret";
  EXPECT_EQ(*read_secret_file(dir_ / "secret.old"), *old_secret);
  const std::string text = read("driftd.conf");
  EXPECT_EQ(ct::get(text, "node.id"), "5");
  EXPECT_EQ(ct::get(text, "node.address"), "10.1.2.3");
  EXPECT_EQ(ct::get(text, "cluster.secret_file"), (dir_ / "secret").string());
  EXPECT_EQ(read("driftd.conf.old"), kInstalled);

  const auto join = test::run_driftctl("cluster join-config --config " +
                                       (dir_ / "driftd.conf").string() +
                                       " --id 6 --address 10.1.2.4");
  ASSERT_EQ(join.exit_code, 0) << join.err;
  EXPECT_EQ(ct::get(join.out, "node.id"), "6");
  EXPECT_EQ(ct::get(join.out, "cluster.seeds"), "10.1.2.3:7400");
  EXPECT_EQ(ct::get(join.out, "cluster.name"), "lab");
}

TEST_F(ClusterCommandTest, BadValuesAreUsageErrorsNamingThem) {
  const std::string conf = " --config " + (dir_ / "driftd.conf").string();
  auto out = test::run_driftctl("cluster join-config --address 10.0.0.9" + conf);
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.err.find("--id is required"), std::string::npos) << out.err;
  out = test::run_driftctl("cluster join-config --id 0 --address 10.0.0.9" + conf);
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.err.find("--id 0: must be 1..4294967295"), std::string::npos) << out.err;
  out = test::run_driftctl("cluster join-config --id 3 --address 10.0.0.9:7400" + conf);
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.err.find("--address '10.0.0.9:7400'"), std::string::npos) << out.err;
  out = test::run_driftctl("cluster join-config --id 3 --address 10.0.0.9 --config /nonexistent/x");
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_NE(out.err.find("cannot read '/nonexistent/x'"), std::string::npos) << out.err;
  out = test::run_driftctl("cluster frobnicate");
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.err.find("unknown subcommand 'frobnicate'"), std::string::npos) << out.err;
  EXPECT_EQ(read("driftd.conf"), kInstalled) << "nothing is written on bad input";
}

}  // namespace
}  // namespace drift::ctl
