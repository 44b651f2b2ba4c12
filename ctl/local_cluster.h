// A cluster of real driftd processes on this machine (127.0.0.1), for trying drift out and for
// the integration tests. Daemon K (1..N) has node id K, name nodeK and port base_port+K-1; its
// config, log and pid file are DIR/nodeK.conf, DIR/nodeK.log, DIR/nodeK.pid, its data DIR/nodeK/,
// and all share the secret DIR/secret (made once, then reused). Not thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "ctl/client_connection.h"
#include "node/net/endpoint.h"
#include <drift/status.h>

namespace drift::ctl {

struct LocalClusterOptions {
  std::filesystem::path driftd;  // empty: find_driftd()
  std::chrono::milliseconds ready_timeout{20000};
  std::chrono::milliseconds stop_grace{5000};  // SIGINT to SIGKILL
  bool stop_with_parent = false;               // tests: daemons die with the test process
  std::vector<std::string> extra_args;         // "--key=value" for every daemon
  std::map<int, std::vector<std::string>> node_args;  // "--key=value" for daemon K only, after extra_args
  // Where daemon K lives (the fault harness puts each in its own network namespace): it listens
  // on hosts[K-1] (default 127.0.0.1) and is started through launchers[K] (e.g. {"/usr/sbin/ip",
  // "netns", "exec", "NS"}), which must exec driftd in its own process.
  std::vector<std::string> hosts;
  std::map<int, std::vector<std::string>> launchers;
  // Daemon K runs commands[K] (a program and its first arguments, e.g. {"qemu-s390x", "-L",
  // "/usr/s390x-linux-gnu", "build-s390x/bin/driftd"}) instead of `driftd`; a program without a
  // slash is looked up on PATH. Its launcher, if any, still goes in front.
  std::map<int, std::vector<std::string>> commands;
  // TESTING ONLY: daemons without TLS (test.plaintext), and clients to match; for measuring
  // what TLS costs.
  bool plaintext = false;
  // Daemon K serves its HTTP endpoint (dashboard, /metrics) on 127.0.0.1:http_port+K-1; 0: none
  // (http.listen = off, the default here: tests run many clusters at once).
  std::uint16_t http_port = 0;
};

class LocalCluster {
 public:
  explicit LocalCluster(std::filesystem::path dir, LocalClusterOptions options = {});

  // Starts `nodes` daemons and returns once each answers status listing `nodes` alive members.
  // Refuses when DIR has live daemons. On failure it names the node, quotes the end of its log
  // and stops the daemons it started.
  Status up(int nodes, std::uint16_t base_port, const std::filesystem::path& base_config = {});
  // Stops every daemon with a pid file in DIR (SIGINT, SIGKILL after the grace time) and removes
  // the pid files. One line per daemon.
  std::vector<std::string> down();
  // Starts daemon k of a cluster this object brought up again (after it was killed), with the
  // same config and a new incarnation; returns once it answers status (at once, without
  // `wait_ready`). Its log is appended to.
  Status restart(int k, bool wait_ready = true);

  int nodes() const { return nodes_; }
  // -1 when node k has no readable pid file.
  pid_t pid(int k) const;
  Endpoint node_endpoint(int k) const;
  Status kill(int k, int signal);
  // How to reach node k as a client, with the cluster secret.
  Result<ConnectOptions> connect_options(int k) const;
  // Pids of daemons that are still running according to DIR's pid files.
  std::vector<pid_t> running_pids() const;

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path secret_file() const { return dir_ / "secret"; }
  std::filesystem::path config_file(int k) const;
  std::filesystem::path log_file(int k) const;
  std::filesystem::path pid_file(int k) const;
  std::string log_tail(int k, int lines) const;

 private:
  Status check_not_running() const;
  Status prepare(const std::filesystem::path& base_config, std::string& base_text);
  Status start_node(int k, bool fresh_log);
  Status wait_ready(int k, std::chrono::steady_clock::time_point deadline) const;
  Status failed_node(int k, const std::string& why);
  std::vector<int> pid_file_nodes() const;

  std::filesystem::path dir_;
  LocalClusterOptions options_;
  int nodes_ = 0;
  std::uint16_t base_port_ = 0;
  std::string base_text_;
  std::filesystem::path driftd_;
};

}  // namespace drift::ctl
