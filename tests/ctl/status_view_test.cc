// status_view: `driftctl status` as a table and as JSON, counters included.
#include "ctl/status_view.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

StatusReply status_sample() {
  StatusReply r;
  r.responder = 1;
  NodeStatus b;
  b.member = {2, 5, "node2", "127.0.0.1:7401", MemberState::kDead, "x86_64"};
  b.load.task_count = 0;
  NodeStatus a;
  a.member = {1, 7, "node1", "127.0.0.1:7400", MemberState::kAlive, "x86_64"};
  a.load.task_count = 4;
  a.load.task_load = 16384;
  a.load.capacity = 2.5e6;
  a.load.load_average = 0.75;
  a.load.free_memory_bytes = 3ull << 30;
  a.counters = {4, 1, 96ull << 20, 250, 12};
  r.nodes = {b, a};
  return r;
}

TEST(StatusViewTest, JsonListsNodesByIdWithTheirState) {
  const auto j = status_json(status_sample());
  ASSERT_EQ(j["nodes"].size(), 2u);
  EXPECT_EQ(j["nodes"][0]["id"], 1);
  EXPECT_EQ(j["nodes"][0]["name"], "node1");
  EXPECT_EQ(j["nodes"][0]["address"], "127.0.0.1:7400");
  EXPECT_EQ(j["nodes"][0]["state"], "available");
  EXPECT_EQ(j["nodes"][0]["member"], "alive");
  EXPECT_EQ(j["nodes"][0]["incarnation"], 7);
  EXPECT_EQ(j["nodes"][0]["tasks"], 4);
  EXPECT_EQ(j["nodes"][0]["free_memory_bytes"], 3ull << 30);
  EXPECT_EQ(j["nodes"][1]["state"], "dead");
  EXPECT_EQ(j["nodes"][1]["member"], "dead");
  for (const char* key : {"load", "capacity", "load_average", "utilization", "owner"}) {
    EXPECT_TRUE(j["nodes"][0].contains(key)) << key;
  }
}

TEST(StatusViewTest, TableHasAHeaderAndOneRowPerNode) {
  const std::string table = status_table(status_sample());
  EXPECT_EQ(table.rfind("ID", 0), 0u) << table;
  EXPECT_NE(table.find("node1"), std::string::npos);
  EXPECT_NE(table.find("dead"), std::string::npos);
  EXPECT_NE(table.find("3072 MiB"), std::string::npos) << table;
  EXPECT_LT(table.find("node1"), table.find("node2"));
}

TEST(StatusViewTest, JsonHasEveryCounter) {
  const auto j = status_json(status_sample())["nodes"][0];
  EXPECT_EQ(j["migrations_out"], 4);
  EXPECT_EQ(j["migrations_in"], 1);
  EXPECT_EQ(j["bytes_moved"], 96ull << 20);
  EXPECT_EQ(j["messages_forwarded"], 250);
  EXPECT_EQ(j["location_updates"], 12);
  EXPECT_EQ(j["suspicions"], 0);
  EXPECT_EQ(j["deaths_declared"], 0);
  EXPECT_EQ(status_json(status_sample())["nodes"][1]["bytes_moved"], 0);
}

TEST(StatusViewTest, TableEndsWithTheMigrationCounters) {
  const std::string table = status_table(status_sample());
  const std::string header = table.substr(0, table.find('\n'));
  EXPECT_NE(header.find("FREE MEM  MIGR     MOVED  FWD  LOCUPD"), std::string::npos) << table;
  EXPECT_NE(table.find("3072 MiB   4/1  96.0 MiB  250      12\n"), std::string::npos) << table;
  EXPECT_NE(table.find("-   0/0       0 B    0       0\n"), std::string::npos) << table;
}

// The load a dead node last sent is no longer true: its row shows none, its counters stay.
TEST(StatusViewTest, ADeadNodesRowShowsNoLoad) {
  StatusReply r = status_sample();
  r.nodes[0].load.task_count = 2;
  r.nodes[0].load.task_load = 2088;
  const std::string table = status_table(r);
  const std::size_t at = table.find("node2");
  const std::string row = table.substr(at, table.find('\n', at) - at);
  EXPECT_EQ(row.find("2088"), std::string::npos) << row;
  EXPECT_EQ(row.find(" 2 "), std::string::npos) << row;
  EXPECT_NE(row.find("dead"), std::string::npos) << row;
}

TEST(StatusViewTest, StateIsTheOwnerStateOfALiveNodeAndTheDetectorsVerdictOtherwise) {
  StatusReply r = status_sample();
  r.nodes[1].load.owner = OwnerState::kDraining;  // node 1, alive
  r.nodes[0].load.owner = OwnerState::kSuspended;  // node 2, dead: its last owner state is moot
  auto j = status_json(r);
  EXPECT_EQ(j["nodes"][0]["state"], "draining");
  EXPECT_EQ(j["nodes"][0]["owner"], "draining");
  EXPECT_EQ(j["nodes"][1]["state"], "dead");
  r.nodes[0].member.state = MemberState::kSuspect;
  EXPECT_EQ(status_json(r)["nodes"][1]["state"], "suspect");
  for (auto [owner, word] : {std::pair{OwnerState::kAvailable, "available"},
                             {OwnerState::kSuspended, "suspended"},
                             {OwnerState::kReclaimed, "reclaimed"}}) {
    r.nodes[1].load.owner = owner;
    EXPECT_EQ(status_json(r)["nodes"][0]["state"], word);
    EXPECT_NE(status_table(r).find(word), std::string::npos);
  }
}

}  // namespace
}  // namespace drift::ctl
