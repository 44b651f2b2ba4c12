// A cluster used by people, through driftctl as they use it: tokens made with
// `driftctl token create`, commands run with one of them against node 1, and checks of what
// node 1 logged about who did what. Shared by the tests of roles and of jobs that outlive
// their client.
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/driftctl_process.h"
#include "tests/integration/poll.h"

namespace drift::test {

class PeopleTest : public ClusterTest {
 protected:
  std::string secret_file() const { return (dir_ / "secret").string(); }
  std::string node(int k = 1) const {
    return "--node " + cluster_->node_endpoint(k).to_string() + " ";
  }

  // `driftctl token create NAME --role ROLE`, into DIR/NAME.token.
  std::string make_token(const std::string& name, const std::string& role) {
    const std::string file = (dir_ / (name + ".token")).string();
    const auto made = driftctl("--secret-file " + secret_file() + " token create " + name +
                               " --role " + role + " --out " + file);
    EXPECT_EQ(made.exit_code, 0) << made.out;
    return file;
  }
  // `command` as the holder of `token_file`, against node `at`.
  DriftctlOutput as(const std::string& token_file, const std::string& command, int at = 1) {
    return driftctl(node(at) + "--token-file " + token_file + " " + command);
  }
  void expect_logged(const std::string& text) {
    using namespace std::chrono_literals;
    EXPECT_TRUE(poll_until(3s, 50ms, [&] { return log_of(1).find(text) != std::string::npos; }))
        << "node 1's log does not mention: " << text;
  }
  // The first job id ("0x...") in `text`, or "".
  static std::string job_id_in(const std::string& text) {
    std::smatch m;
    return std::regex_search(text, m, std::regex("0x[0-9a-f]+")) ? m.str() : std::string();
  }
  // Job `id` as `jobs --all --json` (as `token`) shows it: its JSON object, or "" if not listed.
  std::string job_json(const std::string& token, const std::string& id, int node = 1) {
    const auto jobs = as(token, "jobs --all --json", node);
    const auto at = jobs.out.find("\"job\":\"" + id + "\"");
    if (at == std::string::npos) return "";
    const auto begin = jobs.out.rfind('{', at);
    return jobs.out.substr(begin, jobs.out.find('}', at) - begin + 1);
  }
  // Until `jobs --all --json` (as `token`) shows job `id` in `state`.
  bool wait_for_state(const std::string& token, const std::string& id, const std::string& state,
                      std::chrono::milliseconds timeout, int node = 1) {
    using namespace std::chrono_literals;
    return poll_until(timeout, 100ms, [&] {
      return job_json(token, id, node).find("\"state\":\"" + state + "\"") != std::string::npos;
    });
  }
  // The "checksum ..." line of a job report, or "none".
  static std::string checksum_line(const std::string& out) {
    const auto at = out.find("checksum");
    return at == std::string::npos ? std::string("none") : out.substr(at, out.find('\n', at) - at);
  }
};

}  // namespace drift::test
