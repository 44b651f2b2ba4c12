// The Prometheus text of a node (observe/metrics_text.h): the format's rules, checked line by
// line (the integration test parses it with Prometheus's own parser).
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "observe/metrics_text.h"

namespace drift {
namespace {

NodeMetrics sample() {
  NodeMetrics m;
  m.self.member = MemberInfo{3, 7, "pc \"3\"\\lab", "127.0.0.1:7402", MemberState::kAlive, "s390x"};
  m.self.load.capacity = 2.5;
  m.self.load.task_count = 4;
  m.self.load.owner = OwnerState::kDraining;
  m.self.counters.migrations_out = 12;
  m.self.counters.bytes_moved = 1 << 20;
  m.self.counters.longest_stall_ms = 250;
  m.version = "0.1.0";
  m.members = {5, 1, 2};
  m.jobs_running = 1;
  m.jobs_queued = 2;
  m.jobs_failed = 3;
  m.jobs_cancelled = 4;
  m.refused = {{"frame", 3}, {"forged_sender", 1}};
  return m;
}

TEST(MetricsText, EveryFamilyHasHelpAndTypeBeforeItsSamplesAndNamesFollowTheRules) {
  std::istringstream text(metrics_text(sample()));
  std::set<std::string> typed;
  std::string current;
  int samples = 0;
  const std::regex name_re("[a-zA-Z_:][a-zA-Z0-9_:]*");
  for (std::string line; std::getline(text, line);) {
    if (line.rfind("# HELP ", 0) == 0) {
      current = line.substr(7, line.find(' ', 7) - 7);
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      std::istringstream words(line.substr(7));
      std::string name, type;
      words >> name >> type;
      EXPECT_EQ(name, current) << "TYPE without its HELP: " << line;
      EXPECT_TRUE(type == "gauge" || type == "counter") << line;
      EXPECT_EQ(name.rfind("drift_", 0), 0u) << name;
      EXPECT_TRUE(std::regex_match(name, name_re)) << name;
      if (type == "counter") {
        EXPECT_EQ(name.substr(name.size() - 6), "_total") << name;
      }
      EXPECT_TRUE(typed.insert(name).second) << "family twice: " << name;
      continue;
    }
    ++samples;
    const std::string name = line.substr(0, line.find_first_of("{ "));
    EXPECT_EQ(name, current) << "a sample outside its family: " << line;
  }
  EXPECT_GT(samples, 30);
}

TEST(MetricsText, StatesAreLabelsAndValuesAreInBaseUnits) {
  const std::string text = metrics_text(sample());
  for (const char* line :
       {"drift_members{state=\"alive\"} 5\n", "drift_members{state=\"suspect\"} 1\n",
        "drift_members{state=\"dead\"} 2\n", "drift_owner_state{state=\"draining\"} 1\n",
        "drift_owner_state{state=\"available\"} 0\n", "drift_jobs{state=\"queued\"} 2\n",
        "drift_tasks_hosted 4\n", "drift_node_capacity 2.5\n",
        "drift_migrations_out_total 12\n", "drift_migration_sent_bytes_total 1048576\n",
        "drift_network_thread_longest_stall_seconds 0.25\n",
        "drift_refused_total{reason=\"frame\"} 3\n",
        "drift_refused_total{reason=\"forged_sender\"} 1\n",
        "drift_jobs_ended_total{outcome=\"failed\"} 3\n",
        "drift_jobs_ended_total{outcome=\"cancelled\"} 4\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << text;
  }
}

TEST(MetricsText, LabelValuesAreEscaped) {
  EXPECT_EQ(escape_label("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  const std::string text = metrics_text(sample());
  EXPECT_NE(text.find("name=\"pc \\\"3\\\"\\\\lab\""), std::string::npos) << text;
}

}  // namespace
}  // namespace drift
