// local_node_config: the config file `driftctl local up` writes for each daemon.
#include "ctl/local_node_config.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

LocalNodeSettings node2() {
  LocalNodeSettings n;
  n.id = 2;
  n.name = "node2";
  n.port = 7401;
  n.data_dir = "/tmp/x/node2";
  n.secret_file = "/tmp/x/secret";
  n.seeds = {"127.0.0.1:7400"};
  return n;
}

TEST(LocalNodeConfigTest, AppendsThePerNodeKeys) {
  const std::string text = render_local_node_config("[log]\nlevel = debug\n", node2());
  EXPECT_NE(text.find("[log]\nlevel = debug\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[node]\nid = 2\nname = node2\naddress = 127.0.0.1\nport = 7401\n"
                      "data_dir = /tmp/x/node2\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[cluster]\nsecret_file = /tmp/x/secret\nseeds = 127.0.0.1:7400\n"),
            std::string::npos)
      << text;
}

TEST(LocalNodeConfigTest, FirstNodeHasNoSeeds) {
  auto n = node2();
  n.seeds.clear();
  EXPECT_EQ(render_local_node_config("", n).find("seeds"), std::string::npos);
}

TEST(LocalNodeConfigTest, CommentsOutKeysTheBaseMustNotSet) {
  const std::string base =
      "[node]\nworkers = 1\nport = 9999\n[cluster]\nname = c\nseeds=1.2.3.4:1\n[log]\nfile = x\n";
  const std::string stripped = strip_owned_keys(base);
  EXPECT_NE(stripped.find("workers = 1\n"), std::string::npos);
  EXPECT_NE(stripped.find("name = c\n"), std::string::npos);
  EXPECT_NE(stripped.find("# (set per node by driftctl local up) port = 9999"), std::string::npos);
  EXPECT_NE(stripped.find("# (set per node by driftctl local up) seeds=1.2.3.4:1"),
            std::string::npos);
  EXPECT_NE(stripped.find("# (set per node by driftctl local up) file = x"), std::string::npos);
}

TEST(LocalNodeConfigTest, SameKeyNameInAnotherSectionIsKept) {
  EXPECT_EQ(strip_owned_keys("[cluster]\nname = x\n"), "[cluster]\nname = x\n");
}

TEST(LocalNodeConfigTest, OwnerReclaimIsOffUnlessTheBaseSetsThePolicy) {
  EXPECT_NE(render_local_node_config("", node2()).find("[owner]\npolicy = never\n"),
            std::string::npos);
  const std::string text = render_local_node_config("[owner]\npolicy = desktop\n", node2());
  EXPECT_EQ(text.find("policy = never"), std::string::npos) << text;
  // A key of that name in another section does not count.
  EXPECT_NE(render_local_node_config("[x]\npolicy = desktop\n", node2()).find("policy = never"),
            std::string::npos);
}

}  // namespace
}  // namespace drift::ctl
