#include "node/config/config.h"

#include "tests/node/config_test_fixture.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace drift {
namespace {

using namespace testing_config;
using std::chrono::milliseconds;

const char* const kAllKeys[] = {"node.id",
                                "node.name",
                                "node.address",
                                "node.port",
                                "node.data_dir",
                                "node.workers",
                                "node.capacity",
                                "node.cpu",
                                "cluster.name",
                                "cluster.secret_file",
                                "cluster.seeds",
                                "membership.heartbeat_ms",
                                "membership.group_size",
                                "membership.phi_threshold",
                                "membership.min_std_dev_ms",
                                "membership.acceptable_pause_ms",
                                "membership.suspect_timeout_ms",
                                "membership.probe_helpers",
                                "membership.suspect_timeout_max_ms",
                                "membership.hang_timeout_ms",
                                "membership.first_heartbeat_ms",
                                "net.max_frame_bytes",
                                "net.reconnect_min_ms",
                                "net.reconnect_max_ms",
                                "log.level",
                                "log.file",
                                "emulate.speed",
                                "emulate.unit_rate",
                                "emulate.load",
                                "balance.strategy",
                                "balance.capacity",
                                "balance.sensing",
                                "balance.period_ms",
                                "balance.eff_min",
                                "balance.hysteresis",
                                "balance.capacity_ewma",
                                "balance.locality_weight",
                                "balance.max_moves",
                                "balance.step_floor",
                                "test.hooks",
                                "test.drop_frames",
                                "test.duplicate_frames",
                                "test.delay_frames_ms",
                                "owner.policy",
                                "owner.start_idle",
                                "owner.start_load",
                                "owner.suspend_idle",
                                "owner.suspend_load",
                                "owner.suspend_load_time",
                                "owner.continue_idle",
                                "owner.max_suspend",
                                "owner.vacate_deadline",
                                "owner.poll_ms",
                                "owner.sessions",
                                "owner.input_devices",
                                "owner.load",
                                "owner.activity_file"};


TEST_F(ConfigTest, ReadsAGoodFile) {
  const std::string text =
      "# drift node 7\n"
      "[node]\n"
      "id = 7          # stable id\n"
      "name = lab-pc-7\n"
      "address = ::1\n"
      "port = 7407\n"
      "data_dir = data\n"
      "workers = 3\n"
      "capacity = 2.5\n"
      "\n"
      "[cluster]\n"
      "name = physics\n"
      "secret_file = secret\n"
      "seeds = 10.0.0.1:7400, [fe80::1]:7401\n"
      "seeds = seed.example:7402\n"
      "[membership]\n"
      "heartbeat_ms = 150\n"
      "group_size = 6\n"
      "phi_threshold = 9.5\n"
      "min_std_dev_ms = 80\n"
      "acceptable_pause_ms = 300\n"
      "suspect_timeout_ms = 900\n"
      "probe_helpers = 5\n"
      "first_heartbeat_ms = 7000\n"
      "[net]\n"
      "max_frame_bytes = 1048576\n"
      "reconnect_min_ms = 50\n"
      "reconnect_max_ms = 2000\n"
      "[log]\n"
      "level = debug\n"
      "file = logs/node7.log\n";
  const NodeConfig c = config_of(parse_file(text));
  EXPECT_EQ(c.node_id, 7u);
  EXPECT_EQ(c.name, "lab-pc-7");
  EXPECT_EQ(c.address, "::1");
  EXPECT_EQ(c.port, 7407);
  EXPECT_EQ(c.data_dir, path("data"));
  EXPECT_EQ(c.workers, 3u);
  EXPECT_EQ(c.capacity, 2.5);
  EXPECT_EQ(c.cluster_name, "physics");
  EXPECT_EQ(c.secret_file, path("secret"));
  EXPECT_EQ(std::string(c.secret.begin(), c.secret.end()), "0123456789abcdef-cluster-secret");
  ASSERT_EQ(c.seeds.size(), 3u);
  EXPECT_EQ(c.seeds[0], (Endpoint{"10.0.0.1", 7400}));
  EXPECT_EQ(c.seeds[1], (Endpoint{"fe80::1", 7401}));
  EXPECT_EQ(c.seeds[2], (Endpoint{"seed.example", 7402}));
  EXPECT_EQ(c.heartbeat_interval, milliseconds(150));
  EXPECT_EQ(c.group_size, 6u);
  EXPECT_EQ(c.phi_threshold, 9.5);
  EXPECT_EQ(c.min_std_dev, milliseconds(80));
  EXPECT_EQ(c.acceptable_pause, milliseconds(300));
  EXPECT_EQ(c.suspect_timeout, milliseconds(900));
  EXPECT_EQ(c.probe_helpers, 5u);
  EXPECT_EQ(c.where("membership.probe_helpers"), at(23));
  EXPECT_EQ(c.first_heartbeat, milliseconds(7000));
  EXPECT_EQ(c.max_frame_bytes, 1048576u);
  EXPECT_EQ(c.reconnect_min, milliseconds(50));
  EXPECT_EQ(c.reconnect_max, milliseconds(2000));
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.log_file, path("logs/node7.log"));
  EXPECT_EQ(c.config_file, path("n.conf"));
  EXPECT_EQ(c.where("node.id"), at(3));
  EXPECT_EQ(c.where("node.port"), at(6));
  EXPECT_EQ(c.where("cluster.seeds"), at(14));
  EXPECT_EQ(c.where("log.file"), at(31));
}

TEST_F(ConfigTest, UnsetKeysKeepTheirDefaults) {
  const NodeConfig c = config_of(parse_file(kMinimal));
  const NodeConfig d;
  EXPECT_EQ(c.node_id, 1u);
  EXPECT_FALSE(c.name.empty());  // the host name
  EXPECT_EQ(c.address, d.address);
  EXPECT_EQ(c.port, d.port);
  EXPECT_EQ(c.data_dir, d.data_dir);
  EXPECT_EQ(c.cluster_name, d.cluster_name);
  EXPECT_TRUE(c.seeds.empty());
  EXPECT_EQ(c.heartbeat_interval, d.heartbeat_interval);
  EXPECT_EQ(c.phi_threshold, d.phi_threshold);
  EXPECT_EQ(c.max_frame_bytes, d.max_frame_bytes);
  EXPECT_EQ(c.log_level, d.log_level);
  EXPECT_EQ(c.log_file, "");
  EXPECT_EQ(c.where("node.port"), "default");
}

TEST_F(ConfigTest, CommandLineWinsOverTheFile) {
  const std::string text = std::string(kMinimal) + "[node]\nport = 7401\n" +
                           "[cluster]\nseeds = a:1\nseeds = b:2\n[log]\nlevel = warn\n";
  const NodeConfig c = config_of(
      parse_file(text, {"--node.port=7500", "--cluster.seeds", "c:3,d:4", "--log.level=trace"}));
  EXPECT_EQ(c.port, 7500);
  EXPECT_EQ(c.where("node.port"), "command line");
  ASSERT_EQ(c.seeds.size(), 2u);  // replaced, not added to
  EXPECT_EQ(c.seeds[0], (Endpoint{"c", 3}));
  EXPECT_EQ(c.seeds[1], (Endpoint{"d", 4}));
  EXPECT_EQ(c.log_level, "trace");
  EXPECT_EQ(c.where("node.id"), at(2));
}

TEST_F(ConfigTest, CommandLineAloneIsEnough) {
  const NodeConfig c = config_of(
      parse({"--node.id=9", "--cluster.secret_file=" + path("secret"), "--node.data_dir=rel"}));
  EXPECT_EQ(c.node_id, 9u);
  EXPECT_EQ(c.data_dir, "rel");  // relative to the working directory, not resolved
  EXPECT_EQ(c.where("node.id"), "command line");
  EXPECT_EQ(c.secret.size(), 31u);
}

TEST_F(ConfigTest, AbsolutePathsInTheFileStayAsTheyAre) {
  const std::string text = std::string(kMinimal) + "[node]\ndata_dir = /var/lib/drift\n";
  EXPECT_EQ(config_of(parse_file(text)).data_dir, "/var/lib/drift");
}

TEST_F(ConfigTest, HelpListsEveryKey) {
  for (const char* flag : {"--help", "-h"}) {
    const auto r = parse({"--node.port=1", flag});
    ASSERT_TRUE(std::holds_alternative<ConfigHelp>(r)) << flag;
    const std::string& text = std::get<ConfigHelp>(r).text;
    EXPECT_NE(text.find("driftd --config FILE [--key=value ...]"), std::string::npos);
    for (const char* key : kAllKeys) {
      EXPECT_NE(text.find(std::string("--") + key + " "), std::string::npos) << key;
    }
    EXPECT_NE(text.find("(default: 7400)"), std::string::npos);
    EXPECT_NE(text.find("--config"), std::string::npos);
  }
}

// ---- errors ------------------------------------------------------------------------------

TEST_F(ConfigTest, UnknownKeyInFileNamesItsLine) {
  error_of(parse_file("[node]\nid = 1\n\n# comment\nprot = 7400\n"),
           {at(5) + ": unknown key 'node.prot'"});
  error_of(parse_file("id = 1\n"), {at(1), "unknown key 'id'"});
}

TEST_F(ConfigTest, UnknownKeyOnCommandLine) {
  error_of(parse_file(kMinimal, {"--node.prot=1"}), {"unknown key 'node.prot'", "command line"});
  error_of(parse_file(kMinimal, {"--node.i=1"}), {"unknown key 'node.i'"});  // no guessing
}

TEST_F(ConfigTest, UnexpectedPositionalArgument) {
  error_of(parse({"n.conf"}), {"unexpected argument 'n.conf'", "usage: driftd --config FILE"});
}

TEST_F(ConfigTest, MalformedLinesAndDuplicates) {
  error_of(parse_file("[node]\nid 1\n"), {at(2), "'id 1'"});
  error_of(parse_file("[]\nid = 1\n"), {at(1), "empty section"});
  error_of(parse_file("[node]\nid = 1\nport = 1\nport = 2 # again\n"),
           {at(4), "node.port", "'2'", "already set on line 3"});
}

TEST_F(ConfigTest, BadAddress) {
  const std::string text =
      std::string(kMinimal) + "# where we listen\n[node]\naddress = 1.2.3.4.5\n";
  error_of(parse_file(text), {"node.address", "'1.2.3.4.5'", at(7), "not a valid IPv4/IPv6"});
  EXPECT_EQ(config_of(parse_file(kMinimal, {"--node.address=localhost"})).address, "localhost");
  EXPECT_EQ(config_of(parse_file(kMinimal, {"--node.address=10.1.2.3"})).address, "10.1.2.3");
}

TEST_F(ConfigTest, PortOutOfRange) {
  error_of(parse_file(kMinimal, {"--node.port=99999"}),
           {"node.port = '99999' (command line): must be 1..65535"});
  error_of(parse_file(std::string(kMinimal) + "[node]\nport = 0\n"),
           {"node.port = '0'", at(6), "must be 1..65535"});
}

TEST_F(ConfigTest, BadNumbers) {
  error_of(parse_file(std::string(kMinimal) + "[node]\nworkers = many\n"),
           {"node.workers = 'many'", at(6), "not a whole number"});
  error_of(parse_file(std::string(kMinimal) + "[node]\nid = 2\n"), {"node.id", "already set"});
  error_of(parse_file(std::string(kMinimal) + "[membership]\nphi_threshold = high\n"),
           {"membership.phi_threshold = 'high'", at(6), "not a number"});
  error_of(parse_file(std::string(kMinimal) + "[membership]\nheartbeat_ms = -5\n"),
           {"membership.heartbeat_ms = '-5'", at(6)});
  error_of(parse_file(std::string(kMinimal) + "[membership]\nprobe_helpers = 65\n"),
           {"membership.probe_helpers = '65'", at(6), "must be 0..64"});
  error_of(parse_file(std::string(kMinimal) + "[membership]\nhang_timeout_ms = 0\n"),
           {"membership.hang_timeout_ms = '0'", at(6)});
  error_of(parse_file(std::string(kMinimal) + "[membership]\nsuspect_timeout_max_ms = soon\n"),
           {"membership.suspect_timeout_max_ms = 'soon'", at(6)});
  error_of(parse_file(std::string(kMinimal) + "[membership]\nfirst_heartbeat_ms = -5\n"),
           {"membership.first_heartbeat_ms = '-5'", at(6)});
  error_of(parse_file(kMinimal, {"--membership.first_heartbeat_ms=700000"}),
           {"membership.first_heartbeat_ms = '700000' (command line)"});
  error_of(parse_file(kMinimal, {"--node.id=4294967296"}),
           {"node.id = '4294967296' (command line)", "1..4294967295"});
  error_of(parse_file(kMinimal, {"--node.capacity=-1"}), {"node.capacity = '-1'", ">= 0"});
  error_of(parse_file(kMinimal, {"--net.reconnect_max_ms=50"}),
           {"net.reconnect_max_ms = '50' (command line)", "net.reconnect_min_ms"});
}

TEST_F(ConfigTest, MissingRequiredKeys) {
  error_of(parse_file("[cluster]\nsecret_file = secret\n"),
           {"missing required key 'node.id'", path("n.conf")});
  error_of(parse_file("[node]\nid = 1\n"), {"missing required key 'cluster.secret_file'"});
}

TEST_F(ConfigTest, UnreadableOrShortSecret) {
  error_of(parse_file("[node]\nid = 1\n[cluster]\nsecret_file = /nonexistent/secret\n"),
           {"cluster.secret_file = '/nonexistent/secret' (" + at(4) + "): cannot read",
            "No such file or directory"});
  write("short", "only-12bytes\n\n");
  error_of(parse_file("[node]\nid = 1\n[cluster]\nsecret_file = short\n"),
           {"cluster.secret_file", path("short"), at(4), "12 bytes", "at least 16"});
}

TEST_F(ConfigTest, MalformedSeedNamesItsOwnLine) {
  const std::string text = std::string(kMinimal) + "seeds = a:1\nseeds = b:2, c:port\n";
  error_of(parse_file(text), {"cluster.seeds = 'b:2, c:port'", at(6), "'c:port'"});
  error_of(parse_file(kMinimal, {"--cluster.seeds=[::1]"}),
           {"cluster.seeds = '[::1]' (command line)"});
}

TEST_F(ConfigTest, MemberCertificatesNeedAllThreeKeysRelativeToTheFile) {
  const std::string three = std::string(kMinimal) +
                            "tls_ca = ca.pem\ntls_cert = n1.pem\ntls_key = n1.key\n";
  const NodeConfig c = config_of(parse_file(three));
  EXPECT_EQ(c.tls_ca, path("ca.pem"));
  EXPECT_EQ(c.tls_cert, path("n1.pem"));
  EXPECT_EQ(c.tls_key, path("n1.key"));
  error_of(parse_file(std::string(kMinimal) + "tls_ca = ca.pem\ntls_cert = n1.pem\n"),
           {"cluster.tls_key", "is needed too", "cluster.tls_ca, cluster.tls_cert and cluster.tls_key"});
  error_of(parse_file(kMinimal, {"--cluster.tls_key=k.pem"}), {"cluster.tls_ca", "is needed too"});
}

TEST_F(ConfigTest, AdmissionLimitsAndKeptResultsAreCheckedAndRead) {
  const NodeConfig d = config_of(parse_file(kMinimal));
  EXPECT_EQ(d.max_handshakes, 128u);
  EXPECT_EQ(d.max_handshakes_per_address, 16u);
  EXPECT_EQ(d.connections_per_second, 100u);
  EXPECT_EQ(d.keep_results, std::chrono::seconds(7 * 86400));
  EXPECT_EQ(d.max_running, 0u);
  const NodeConfig c = config_of(parse_file(
      std::string(kMinimal) +
      "[net]\nmax_handshakes = 8\n[jobs]\nkeep_results = 0.5\nmax_running = 3\n"));
  EXPECT_EQ(c.max_handshakes, 8u);
  EXPECT_EQ(c.keep_results, std::chrono::seconds(43200));
  EXPECT_EQ(c.max_running, 3u);
  error_of(parse_file(kMinimal, {"--jobs.max_running=-1"}), {"jobs.max_running = '-1'"});
  error_of(parse_file(kMinimal, {"--net.max_handshakes=0"}), {"net.max_handshakes = '0'"});
  error_of(parse_file(kMinimal, {"--net.connections_per_second=lots"}),
           {"net.connections_per_second = 'lots'", "not a whole number"});
  error_of(parse_file(kMinimal, {"--jobs.keep_results=0"}), {"jobs.keep_results = '0'"});
  error_of(parse_file(kMinimal, {"--jobs.keep_results=4000"}),
           {"jobs.keep_results", "at most 3650 days"});
}

TEST_F(ConfigTest, HttpListenIsLoopbackOrOff) {
  const NodeConfig d = config_of(parse_file(kMinimal));
  ASSERT_TRUE(d.http_listen.has_value());
  EXPECT_EQ(d.http_listen->to_string(), "127.0.0.1:7480");
  EXPECT_FALSE(config_of(parse_file(std::string(kMinimal) + "[http]\nlisten = off\n")).http_listen);
  const NodeConfig c = config_of(parse_file(kMinimal, {"--http.listen=[::1]:9100"}));
  ASSERT_TRUE(c.http_listen.has_value());
  EXPECT_EQ(c.http_listen->port, 9100);
  EXPECT_EQ(config_of(parse_file(kMinimal, {"--http.listen=localhost:9100"})).http_listen->host,
            "localhost");
  error_of(parse_file(std::string(kMinimal) + "[http]\nlisten = 0.0.0.0:7480\n"),
           {"http.listen = '0.0.0.0:7480'", at(6), "loopback address"});
  error_of(parse_file(kMinimal, {"--http.listen=192.168.1.4:80"}),
           {"http.listen = '192.168.1.4:80'", "command line", "this machine only"});
  error_of(parse_file(kMinimal, {"--http.listen=127.0.0.1"}), {"http.listen = '127.0.0.1'", "'off'"});
  error_of(parse_file(kMinimal, {"--http.listen=127.0.0.1:99999"}), {"http.listen"});
  // With a certificate and key (HTTPS, tokens asked for) any address will do; half is an error.
  const NodeConfig remote = config_of(parse_file(
      kMinimal, {"--http.listen=0.0.0.0:7480", "--http.tls_cert=c.pem", "--http.tls_key=k.pem"}));
  EXPECT_EQ(remote.http_listen->host, "0.0.0.0");
  EXPECT_EQ(remote.http_tls_cert, "c.pem");
  error_of(parse_file(kMinimal, {"--http.tls_cert=c.pem"}),
           {"http.tls_cert", "needs the other half"});
}

TEST_F(ConfigTest, UnknownLogLevel) {
  error_of(parse_file(std::string(kMinimal) + "[log]\nlevel = loud\n"),
           {"log.level = 'loud'", at(6), "trace, debug, info, warn, error"});
}

TEST_F(ConfigTest, MissingConfigFile) {
  error_of(parse({"--config", path("absent.conf")}),
           {"--config '" + path("absent.conf") + "' (command line)", "No such file or directory"});
  error_of(parse({"-c", dir_.string()}), {"Is a directory"});
}

}  // namespace
}  // namespace drift
