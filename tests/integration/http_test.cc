// driftd's HTTP endpoint (http.listen) with real daemons: /metrics parses with Prometheus's own
// parser (Debian's python3-prometheus-client) and its counters move as a job runs; /api/status
// is what `driftctl status --json` prints; garbage, slow clients holding connections open and
// 10 000 requests cost the endpoint bounded threads, descriptors and memory and the daemon
// nothing.
#include <gtest/gtest.h>

#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <cerrno>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "ctl/job_client.h"
#include "ctl/status_query.h"
#include "node/http/http_endpoint.h"
#include "observe/job_json.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/driftctl_process.h"
#include "tests/integration/migration_harness.h"
#include "tests/integration/poll.h"
#include "tests/integration/proc_status.h"

namespace drift::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr int kSlot = 52;
constexpr long kEndpointThreads = HttpEndpoint::kThreads, kEndpointQueue = HttpEndpoint::kQueued;

class HttpTest : public ClusterTest {
 protected:
  // `nodes` daemons, daemon K serving HTTP on http_port(K).
  void start(int nodes) {
    auto options = test_cluster_options();
    options.http_port = http_port(1);
    cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
    start_cluster(nodes, kSlot);
  }
  static std::uint16_t http_port(int k) {
    return static_cast<std::uint16_t>(base_port_for(kSlot) + 10 + k - 1);
  }
  httplib::Result get(int k, const std::string& path) {
    httplib::Client client("127.0.0.1", http_port(k));
    client.set_read_timeout(5, 0);
    return client.Get(path.c_str());
  }
  // The samples of node k's /metrics as Prometheus's parser reads them: "name{labels}" -> value.
  std::map<std::string, double> parsed_metrics(int k) {
    auto res = get(k, "/metrics");
    EXPECT_TRUE(res) << "GET /metrics of node " << k;
    if (!res) return {};
    EXPECT_EQ(res->status, 200);
    EXPECT_NE(res->get_header_value("Content-Type").find("text/plain; version=0.0.4"),
              std::string::npos);
    const fs::path text = dir_ / ("metrics" + std::to_string(k) + ".txt");
    std::ofstream(text) << res->body;
    const fs::path script = dir_ / "parse_metrics.py";
    std::ofstream(script) << R"(import json, sys
from prometheus_client.parser import text_string_to_metric_families
out = {}
for family in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in family.samples:
        labels = ",".join(f'{k}="{v}"' for k, v in sorted(s.labels.items()))
        out[s.name + ("{" + labels + "}" if labels else "")] = s.value
print(json.dumps(out))
)";
    const std::string out_file = (dir_ / "parsed.json").string();
    // Debian's Python, where python3-prometheus-client is (not one a user put first on PATH).
    const std::string command = "/usr/bin/python3 " + script.string() + " " + text.string() + " > " +
                                out_file + " 2>&1";
    const int rc = std::system(command.c_str());
    std::ifstream in(out_file);
    std::stringstream parsed;
    parsed << in.rdbuf();
    EXPECT_EQ(rc, 0) << "the Prometheus parser refused node " << k << "'s /metrics:\n"
                     << parsed.str() << "\n" << res->body;
    if (rc != 0) return {};
    std::map<std::string, double> samples;
    const nlohmann::json all = nlohmann::json::parse(parsed.str());
    for (const auto& [name, value] : all.items()) {
      samples[name] = value.get<double>();
    }
    return samples;
  }
  static long open_fds(pid_t pid) {
    long n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) ++n;
    return n;
  }
  // A TCP connection to node k's HTTP port; -1 if it could not be made. Without `wait`, the
  // socket is non-blocking and the connect is only begun, as an attacker opening many does (a
  // full listen backlog would hold a blocking connect for seconds).
  static int connect_raw(int k, bool wait = true) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | (wait ? 0 : SOCK_NONBLOCK), 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(http_port(k));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 &&
        (wait || errno != EINPROGRESS)) {
      ::close(fd);
      return -1;
    }
    return fd;
  }
  bool daemon_answers(int k) {
    return ctl::query_status(connect_options(k), 2s).is_ok();
  }
};

TEST_F(HttpTest, MetricsParseAsPrometheusDoesAndMoveAsAJobRuns) {
  ASSERT_NO_FATAL_FAILURE(start(3));
  EXPECT_NE(log_of(1).find("HTTP endpoint on http://127.0.0.1:" + std::to_string(http_port(1))),
            std::string::npos)
      << log_of(1);
  const auto before = parsed_metrics(1);
  ASSERT_FALSE(before.empty());
  EXPECT_EQ(before.at("drift_members{state=\"alive\"}"), 3);
  EXPECT_EQ(before.at("drift_members{state=\"dead\"}"), 0);
  EXPECT_EQ(before.at("drift_jobs{state=\"running\"}"), 0);
  EXPECT_EQ(before.at("drift_owner_state{state=\"available\"}"), 1);
  EXPECT_GT(before.at("drift_node_capacity"), 0);
  bool info = false;
  for (const auto& [name, value] : before) {
    if (name.rfind("drift_node_info{", 0) == 0 && name.find("name=\"node1\"") != std::string::npos &&
        name.find("node=\"1\"") != std::string::npos && value == 1) {
      info = true;
    }
  }
  EXPECT_TRUE(info) << "no drift_node_info sample naming node1";

  // A job whose tasks move after every step (chaos_migrations): while it runs, node 1 counts it
  // as running; by its end the cluster's migration counters have moved.
  const auto sum = [&](const std::string& name) {
    double total = 0;
    for (int k : {1, 2, 3}) total += parsed_metrics(k).at(name);
    return total;
  };
  const double moved_before = sum("drift_migrations_out_total");
  const double bytes_before = sum("drift_migration_sent_bytes_total");
  JobSpec spec = ctl::job_spec("heat2d", 6, 150, {{"size", "64x64"}});
  spec.runtime["chaos_migrations"] = "1";
  auto ref = reference_run(spec);
  ASSERT_TRUE(ref) << ref.error();
  BackgroundJob job(connect(1), ref->spec, 90s);
  bool seen_running = false;
  poll_until(60s, 20ms, [&] {
    auto res = get(1, "/metrics");
    seen_running = seen_running ||
                   (res && res->body.find("drift_jobs{state=\"running\"} 1\n") != std::string::npos);
    return seen_running || job.done();
  });
  EXPECT_TRUE(seen_running) << "node 1's /metrics never counted the job as running";
  ASSERT_TRUE(job.wait_done(90s)) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  const auto after = parsed_metrics(1);
  EXPECT_EQ(after.at("drift_jobs{state=\"running\"}"), 0);
  EXPECT_EQ(after.at("drift_jobs_ended_total{outcome=\"done\"}"),
            before.at("drift_jobs_ended_total{outcome=\"done\"}") + 1);
  EXPECT_GT(after.at("drift_heartbeats_received_total"),
            before.at("drift_heartbeats_received_total"));
  EXPECT_GT(after.at("drift_heartbeat_received_bytes_total"),
            before.at("drift_heartbeat_received_bytes_total"));
  EXPECT_GT(after.at("drift_heartbeat_sent_bytes_total"),
            before.at("drift_heartbeat_sent_bytes_total"));
  EXPECT_GT(after.at("drift_uptime_seconds"), before.at("drift_uptime_seconds"));
  EXPECT_GT(after.at("drift_http_requests_total"), before.at("drift_http_requests_total"));
  EXPECT_GT(sum("drift_migrations_out_total"), moved_before);
  EXPECT_GT(sum("drift_migration_sent_bytes_total"), bytes_before);
}

// /api/status is `driftctl status --json`, and /api/jobs is the node's part of `jobs --json`.
TEST_F(HttpTest, ApiStatusIsWhatDriftctlStatusJsonPrints) {
  ASSERT_NO_FATAL_FAILURE(start(3));
  auto res = get(2, "/api/status");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Content-Type"), "application/json");
  const auto api = nlohmann::json::parse(res->body);
  const auto printed = driftctl("--node " + cluster().node_endpoint(2).to_string() +
                                " --secret-file " + cluster().secret_file().string() +
                                " status --json");
  ASSERT_EQ(printed.exit_code, 0) << printed.out;
  const auto cli = nlohmann::json::parse(printed.out);
  EXPECT_EQ(api["responder"], cli["responder"]);
  ASSERT_EQ(api["nodes"].size(), 3u);
  ASSERT_EQ(cli["nodes"].size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& a = api["nodes"][i];
    const auto& c = cli["nodes"][i];
    std::vector<std::string> a_keys, c_keys;
    for (const auto& [key, value] : a.items()) a_keys.push_back(key);
    for (const auto& [key, value] : c.items()) c_keys.push_back(key);
    EXPECT_EQ(a_keys, c_keys) << "node " << i << ": not the same fields";
    // What does not change from one moment to the next is the same (not the capacity: it is
    // measured again at every heartbeat).
    for (const char* key : {"id", "name", "address", "state", "member", "incarnation", "owner",
                            "tasks"}) {
      EXPECT_EQ(a[key], c[key]) << key << " of node " << i;
    }
  }
  auto jobs = get(1, "/api/jobs");
  ASSERT_TRUE(jobs);
  EXPECT_EQ(jobs->body, "[]");
  auto page = get(1, "/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<title>drift</title>"), std::string::npos);
  auto missing = get(1, "/etc/passwd");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
}

// The dashboard in a real browser (headless Chromium, Debian's): on a running 3-node cluster it
// shows three node tiles and the job running from node 1 (checked in the DOM the page built from
// the API); a screenshot goes to BUILD/test-artifacts/dashboard.png.
TEST_F(HttpTest, TheDashboardShowsEveryNodeAndTheRunningJobInABrowser) {
  const fs::path chromium = "/usr/bin/chromium";
  ASSERT_TRUE(fs::exists(chromium)) << "no headless browser: apt install chromium "
                                       "(scripts/install-deps.sh does)";
  ASSERT_NO_FATAL_FAILURE(start(3));
  wait_for_load_reports(1);
  JobSpec spec = ctl::job_spec("heat2d", 6, 100000, {{"size", "128x128"}});
  spec.runtime["name"] = "dashboard-demo";
  BackgroundJob job(connect(1), spec, 120s);
  ASSERT_TRUE(job.wait_started(30s)) << "the job did not start";
  const std::string id = job_id_text(job.id());
  const std::string url = "http://127.0.0.1:" + std::to_string(http_port(1)) + "/";
  // --virtual-time-budget: the page's timers and fetches run for 4 s of the page's time before
  // the DOM is taken.
  const std::string browser = chromium.string() +
                              " --headless --no-sandbox --disable-gpu --no-first-run "
                              "--user-data-dir=" + (dir_ / "chromium").string() +
                              " --virtual-time-budget=4000 ";
  const fs::path dom_file = dir_ / "dom.html";
  const int rc = std::system((browser + "--dump-dom " + url + " > " + dom_file.string() +
                              " 2> " + (dir_ / "chromium.log").string()).c_str());
  ASSERT_EQ(rc, 0) << "chromium failed; see " << (dir_ / "chromium.log");
  std::stringstream dom;
  dom << std::ifstream(dom_file).rdbuf();
  const std::string html = dom.str();
  int tiles = 0;
  for (auto at = html.find("class=\"node "); at != std::string::npos;
       at = html.find("class=\"node ", at + 1)) {
    ++tiles;
  }
  EXPECT_EQ(tiles, 3) << html;
  for (int k : {1, 2, 3}) {
    EXPECT_NE(html.find("data-node=\"" + std::to_string(k) + "\""), std::string::npos) << html;
  }
  EXPECT_NE(html.find("data-job=\"" + id + "\" data-state=\"running\""), std::string::npos)
      << "the running job " << id << " is not on the page:\n" << html;
  EXPECT_NE(html.find("dashboard-demo"), std::string::npos);
  EXPECT_NE(html.find("class=\"event info\""), std::string::npos) << "no events listed";
  // The running job's step times, drawn with where its tasks are.
  EXPECT_NE(html.find("class=\"job-steps\""), std::string::npos) << "no step chart";
  EXPECT_NE(html.find("step time over steps"), std::string::npos);
  auto jobs = get(1, "/api/jobs");
  ASSERT_TRUE(jobs);
  const auto listed = nlohmann::json::parse(jobs->body);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_GT(listed[0]["step_s"].size(), 1u);
  std::uint32_t placed = 0;
  for (const auto& [node, tasks] : listed[0]["tasks_per_node"].items()) placed += tasks.get<std::uint32_t>();
  EXPECT_EQ(placed, 6u) << listed[0];

  const fs::path artifacts = fs::path(DRIFT_BUILD_DIR) / "test-artifacts";
  fs::create_directories(artifacts);
  const fs::path shot = artifacts / "dashboard.png";
  fs::remove(shot);
  const int shot_rc =
      std::system((browser + "--window-size=1280,1100 --screenshot=" + shot.string() + " " + url +
                   " >> " + (dir_ / "chromium.log").string() + " 2>&1").c_str());
  EXPECT_EQ(shot_rc, 0);
  EXPECT_TRUE(fs::exists(shot) && fs::file_size(shot) > 10000) << shot;
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  ASSERT_TRUE(connection->send(JobCancel{job.id()}).is_ok());
  EXPECT_TRUE(job.wait_done(30s));
}

// With a certificate, the endpoint speaks HTTPS only and every request under /metrics and /api
// must carry a person's token (the token file's line as a Bearer credential): none, a forged one
// or plain HTTP gets nothing; a user sees only their own jobs in /api/jobs, an admin everyone's.
TEST_F(HttpTest, HttpsAsksForAPersonsTokenAndShowsAUserOnlyTheirJobs) {
  const fs::path cert = dir_ / "http-cert.pem", key = dir_ / "http-key.pem";
  ASSERT_EQ(std::system(("openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=drift "
                         "-addext subjectAltName=IP:127.0.0.1 -keyout " + key.string() +
                         " -out " + cert.string() + " > /dev/null 2>&1").c_str()),
            0);
  auto options = test_cluster_options();
  options.http_port = http_port(1);
  options.extra_args = {"--http.tls_cert=" + cert.string(), "--http.tls_key=" + key.string()};
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
  start_cluster(2, kSlot);
  EXPECT_NE(log_of(1).find("HTTPS endpoint on https://127.0.0.1:" + std::to_string(http_port(1))),
            std::string::npos)
      << log_of(1);
  const auto token = [&](const std::string& name, const std::string& role) {
    const fs::path file = dir_ / (name + ".token");
    const auto made = driftctl("--secret-file " + cluster().secret_file().string() +
                               " token create " + name + " --role " + role + " --out " +
                               file.string());
    EXPECT_EQ(made.exit_code, 0) << made.out;
    std::string line;
    std::getline(std::ifstream(file), line);
    return std::pair{file, line};
  };
  const auto [alice_file, alice] = token("alice", "user");
  const auto [bob_file, bob] = token("bob", "user");
  const auto [carol_file, carol] = token("carol", "admin");
  const auto https_get = [&](const std::string& path, const std::string& credential) {
    httplib::SSLClient client("127.0.0.1", http_port(1));
    client.set_ca_cert_path(cert.c_str());
    client.enable_server_certificate_verification(true);
    client.set_read_timeout(5, 0);
    httplib::Headers headers;
    if (!credential.empty()) headers.emplace("Authorization", "Bearer " + credential);
    return client.Get(path.c_str(), headers);
  };
  auto none = https_get("/metrics", "");
  ASSERT_TRUE(none) << httplib::to_string(none.error());
  EXPECT_EQ(none->status, 401);
  EXPECT_NE(none->body.find("no token"), std::string::npos) << none->body;
  std::string forged = alice;
  forged.back() = forged.back() == '0' ? '1' : '0';
  auto wrong = https_get("/api/status", forged);
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 401);
  EXPECT_NE(wrong->body.find("not this cluster's"), std::string::npos) << wrong->body;
  auto metrics = https_get("/metrics", alice);
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  EXPECT_EQ(metrics->body.rfind("# HELP drift_", 0), 0u);
  auto page = https_get("/", "");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200) << "the page itself holds no data";
  httplib::Client plain("127.0.0.1", http_port(1));
  plain.set_read_timeout(2, 0);
  auto cleartext = plain.Get("/metrics");
  EXPECT_TRUE(!cleartext || cleartext->status != 200) << "plain HTTP answered";

  const auto submitted = driftctl("--node " + cluster().node_endpoint(1).to_string() +
                                  " --token-file " + bob_file.string() +
                                  " submit heat2d --tasks 2 --steps 20 --size 32x32");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out;
  const auto jobs_seen_by = [&](const std::string& credential) {
    auto res = https_get("/api/jobs", credential);
    EXPECT_TRUE(res && res->status == 200);
    return res ? nlohmann::json::parse(res->body) : nlohmann::json::array();
  };
  EXPECT_EQ(jobs_seen_by(alice).size(), 0u);
  ASSERT_EQ(jobs_seen_by(bob).size(), 1u);
  EXPECT_EQ(jobs_seen_by(bob)[0]["owner"], "bob");
  EXPECT_EQ(jobs_seen_by(carol).size(), 1u);
}

// Garbage, clients that hold connections open sending a byte now and then, and 10 000
// requests: the endpoint keeps to its few threads and queue (the daemon's descriptors grow by
// at most those), the daemon answers its own port throughout, and its memory stays put.
TEST_F(HttpTest, HostileClientsCostTheEndpointBoundedResourcesAndTheDaemonNothing) {
  ASSERT_NO_FATAL_FAILURE(start(2));
  const pid_t pid = cluster().pid(1);
  ASSERT_TRUE(get(1, "/metrics"));
  const long fds_before = open_fds(pid);
  const long rss_before = proc_status_field(pid, "VmRSS:");

  // Garbage: answered 400 (or the connection closed), never a crash.
  using namespace std::string_literals;
  for (const std::string& junk :
       {"\x00\xff\x13garbage\r\n\r\n"s, std::string(20000, 'A') + "\r\n\r\n",
        std::string("GET /metrics HTTP/1.1\r\nContent-Length: 99999999\r\n\r\nxx"),
        std::string("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")}) {
    const int fd = connect_raw(1);
    ASSERT_GE(fd, 0);
    ASSERT_GT(::send(fd, junk.data(), junk.size(), MSG_NOSIGNAL), 0);
    char reply[256] = {};
    const auto n = ::recv(fd, reply, sizeof reply - 1, 0);
    ::close(fd);
    if (n > 0) {
      EXPECT_EQ(std::string(reply, 9), "HTTP/1.1 ") << reply;
    }
  }

  // Slow clients: 200 connections, each sending one byte of a request line every 500 ms.
  std::vector<int> slow;
  for (int i = 0; i < 200; ++i) {
    const int fd = connect_raw(1, /*wait=*/false);
    if (fd >= 0) slow.push_back(fd);
  }
  long fds_during = 0;
  for (int round = 0; round < 6; ++round) {
    for (int fd : slow) ::send(fd, "G", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    fds_during = std::max(fds_during, open_fds(pid));
    EXPECT_TRUE(daemon_answers(1)) << "node 1 did not answer status while slow clients held "
                                      "its HTTP endpoint";
    std::this_thread::sleep_for(500ms);  // the attackers' pace, not a synchronisation
  }
  EXPECT_GT(fds_during, fds_before) << "the slow clients never reached the endpoint";
  EXPECT_LE(fds_during - fds_before,
            kEndpointThreads + kEndpointQueue + 4)
      << "the endpoint accepted " << fds_during - fds_before << " connections at once";
  for (int fd : slow) ::close(fd);
  // Once they are gone it answers again.
  EXPECT_TRUE(poll_until(15s, 100ms, [&] {
    auto res = get(1, "/metrics");
    return res && res->status == 200;
  })) << "the endpoint did not recover from the slow clients";

  // 10 000 requests on a few keep-alive connections.
  httplib::Client client("127.0.0.1", http_port(1));
  client.set_keep_alive(true);
  client.set_tcp_nodelay(true);
  int ok = 0;
  for (int i = 0; i < 10000; ++i) {
    auto res = client.Get(i % 2 == 0 ? "/metrics" : "/api/status");
    if (res && res->status == 200) ++ok;
  }
  EXPECT_EQ(ok, 10000);
  const long rss_after = proc_status_field(pid, "VmRSS:");
  if (kRssIsMeaningful) {
    EXPECT_LT(rss_after - rss_before, 32 * 1024)
        << "node 1 grew from " << rss_before << " KiB to " << rss_after << " KiB";
  } else {
    std::cerr << "RSS growth not checked in a sanitizer build (proc_status.h)\n";
  }
  EXPECT_EQ(fate_of(1), "running");
  EXPECT_TRUE(daemon_answers(1));
  auto counters = counters_of(2);
  ASSERT_TRUE(counters) << counters.error();
  EXPECT_EQ(counters->deaths_declared, 0u) << "node 2 declared node 1 dead meanwhile";

  // Told to stop while clients trickle requests into every thread, the daemon stops all the
  // same: it does not wait for them.
  std::vector<int> trickle;
  for (int i = 0; i < 20; ++i) {
    const int fd = connect_raw(1, /*wait=*/false);
    if (fd >= 0) trickle.push_back(fd);
  }
  const auto drip = [&] {
    for (int fd : trickle) ::send(fd, "G", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
  };
  for (int round = 0; round < 4; ++round) {
    drip();
    std::this_thread::sleep_for(250ms);  // the attackers' pace, not a synchronisation
  }
  ASSERT_TRUE(cluster().kill(1, SIGINT).is_ok());
  std::string fate;
  EXPECT_TRUE(poll_until(15s, 100ms, [&] {
    drip();
    return (fate = fate_of(1)) != "running";  // fate_of reaps: asked once it ended
  })) << "node 1 did not stop while clients held its HTTP threads";
  EXPECT_EQ(fate, "exited with status 0");
  for (int fd : trickle) ::close(fd);
}

}  // namespace
}  // namespace drift::test
