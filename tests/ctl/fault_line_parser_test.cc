// fault_line_parser: the [faults] lines of a scenario and the values they use.
#include "ctl/fault_line_parser.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

FaultEntry parsed(const std::string& line, int nodes = 5) {
  auto e = parse_fault_line(line, nodes);
  EXPECT_TRUE(e) << line << ": " << e.status().message();
  return e ? *e : FaultEntry{};
}

std::string error_of(const std::string& line, int nodes = 5) {
  auto e = parse_fault_line(line, nodes);
  return e ? "(parsed)" : e.error();
}

TEST(FaultLineParserTest, Durations) {
  EXPECT_DOUBLE_EQ(*parse_duration("2.5s"), 2.5);
  EXPECT_DOUBLE_EQ(*parse_duration("500ms"), 0.5);
  EXPECT_DOUBLE_EQ(*parse_duration("2m"), 120);
  EXPECT_EQ(parse_duration("3").error(), "duration '3' needs a unit: ms, s or m (e.g. 2.5s)");
  EXPECT_EQ(parse_duration("-1s").error(), "duration '-1s': '-1' is not a number");
  EXPECT_EQ(parse_duration("xs").error(), "duration 'xs': 'x' is not a number");
}

TEST(FaultLineParserTest, NodeRefs) {
  EXPECT_EQ(parse_node_ref("3", 4)->node, 3);
  EXPECT_EQ(parse_node_ref("node4", 4)->node, 4);
  EXPECT_EQ(parse_node_ref("root", 4)->kind, NodeRef::Kind::kRoot);
  EXPECT_EQ(parse_node_ref("worker", 4)->kind, NodeRef::Kind::kWorker);
  EXPECT_EQ(parse_node_ref("5", 4).error(), "node '5': the cluster has nodes 1..4");
  EXPECT_EQ(parse_node_ref("boss", 4).error(),
            "node 'boss': expected N, nodeN, root, random or worker");
}

TEST(FaultLineParserTest, TimedKill) {
  const FaultEntry e = parsed("at 2.5s kill root");
  EXPECT_EQ(e.when.kind, FaultTrigger::Kind::kTime);
  EXPECT_DOUBLE_EQ(e.when.at_s, 2.5);
  EXPECT_EQ(e.action.kind, FaultKind::kKill);
  EXPECT_EQ(e.action.target.kind, NodeRef::Kind::kRoot);
  EXPECT_EQ(e.text, "at 2.5s kill root");
}

TEST(FaultLineParserTest, StepStopWithDuration) {
  const FaultEntry e = parsed("at step 40 stop node3 for 300ms");
  EXPECT_EQ(e.when.kind, FaultTrigger::Kind::kStep);
  EXPECT_EQ(e.when.step, 40u);
  EXPECT_EQ(e.action.kind, FaultKind::kStop);
  EXPECT_EQ(e.action.target.node, 3);
  EXPECT_DOUBLE_EQ(e.action.duration_s, 0.3);
}

TEST(FaultLineParserTest, Partition) {
  const FaultEntry rest = parsed("at 4s partition 4,5 | rest for 3s");
  EXPECT_EQ(rest.action.kind, FaultKind::kPartition);
  EXPECT_EQ(rest.action.side_a, (std::vector<int>{4, 5}));
  EXPECT_TRUE(rest.action.side_b.empty());
  EXPECT_DOUBLE_EQ(rest.action.duration_s, 3);
  EXPECT_EQ(parsed("at 1s partition 1 | 2,3").action.side_b, (std::vector<int>{2, 3}));
  EXPECT_EQ(error_of("at 1s partition 1,2 | 2"), "node 2 is on both sides");
  EXPECT_EQ(error_of("at 1s partition 1,2,3,4,5 | rest"),
            "'1,2,3,4,5' leaves no node on the other side");
  EXPECT_EQ(error_of("at 1s partition root | rest"),
            "'root' in 'root': a partition names its nodes");
  EXPECT_EQ(error_of("at 1s partition 1 rest"), "unexpected 'rest' (expected '|')");
}

TEST(FaultLineParserTest, FrameFaults) {
  EXPECT_DOUBLE_EQ(parsed("at 0s drop 0.01").action.value, 0.01);
  EXPECT_DOUBLE_EQ(parsed("at 0s delay 5ms").action.value, 5);
  const FaultEntry dup = parsed("at 1s duplicate 0.5 for 2s");
  EXPECT_EQ(dup.action.kind, FaultKind::kDuplicate);
  EXPECT_DOUBLE_EQ(dup.action.duration_s, 2);
  EXPECT_EQ(error_of("at 0s drop 1.5"), "fraction '1.5' must be a number in 0..1");
}

TEST(FaultLineParserTest, Every) {
  const FaultEntry e = parsed("every 30s..60s kill random for 10s");
  EXPECT_EQ(e.when.kind, FaultTrigger::Kind::kEvery);
  EXPECT_DOUBLE_EQ(e.when.every_min_s, 30);
  EXPECT_DOUBLE_EQ(e.when.every_max_s, 60);
  EXPECT_DOUBLE_EQ(e.action.duration_s, 10);
  EXPECT_EQ(error_of("every 60s..30s kill random"),
            "'60s..30s': expected MIN..MAX with 0 < MIN <= MAX");
  EXPECT_EQ(error_of("every 1s drop 0.1"), "'every' repeats kill, stop or partition, not drop");
}

TEST(FaultLineParserTest, ReadsHogAndMigrate) {
  auto e = parsed("at 4s hog 2 for 5s");
  EXPECT_EQ(e.action.kind, FaultKind::kHog);
  EXPECT_EQ(e.action.target.node, 2);
  EXPECT_DOUBLE_EQ(e.action.duration_s, 5);
  e = parsed("at step 30 migrate 7 to root");
  EXPECT_EQ(e.action.kind, FaultKind::kMigrate);
  EXPECT_EQ(e.action.task, 7u);
  EXPECT_EQ(e.action.target.kind, NodeRef::Kind::kRoot);
}

TEST(FaultLineParserTest, ErrorsNameTheBadWord) {
  EXPECT_EQ(error_of("when 2s kill 1"), "'when': a fault line starts with 'at' or 'every'");
  EXPECT_EQ(error_of("at 2s explode 1"),
            "unknown action 'explode' (expected kill, stop, cont, restart, partition, drop, "
            "delay, duplicate, hog or migrate)");
  EXPECT_EQ(error_of("at 2s migrate x to 1"), "migrate 'x': expected a task index (0, 1, ...)");
  EXPECT_EQ(error_of("at 2s migrate 0 into 1"), "migrate 0 'into': expected 'to N'");
  EXPECT_EQ(error_of("at 2s migrate 0 to 9"), "node '9': the cluster has nodes 1..5");
  EXPECT_EQ(error_of("at 2s kill"),
            "missing the node to kill (N, root, random or worker) at the end of the line");
  EXPECT_EQ(error_of("at 2s kill 9"), "node '9': the cluster has nodes 1..5");
  EXPECT_EQ(error_of("at 2s kill 1 now"), "unexpected 'now' (expected 'for DURATION')");
  EXPECT_EQ(error_of("at 2s cont 1 for 1s"), "unexpected 'for' after the action");
  EXPECT_EQ(error_of("at step x kill 1"), "step 'x' is not a whole number");
  EXPECT_EQ(error_of("at 2s restart root"), "restart 'root': restart names the node (a number)");
}

}  // namespace
}  // namespace drift::ctl
