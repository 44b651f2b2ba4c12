#include "ctl/local_cluster.h"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "ctl/daemon_process.h"
#include "ctl/driftd_locator.h"
#include "ctl/local_node_config.h"
#include "ctl/pid_file.h"
#include "ctl/secret_file.h"
#include "ctl/status_query.h"

namespace fs = std::filesystem;

namespace drift::ctl {

namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(100);
constexpr auto kProbeTimeout = std::chrono::milliseconds(1000);
constexpr int kLogTailLines = 15;

Result<std::string> read_text(const fs::path& file) {
  std::ifstream in(file);
  if (!in) {
    return Status::error("cannot read base config '" + file.string() +
                         "': " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Status write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Status::error("cannot write '" + file.string() + "': " + std::strerror(errno));
  return Status::ok();
}

std::size_t alive_members(const StatusReply& reply) {
  return std::count_if(reply.nodes.begin(), reply.nodes.end(),
                       [](const NodeStatus& n) { return n.member.state == MemberState::kAlive; });
}

std::string seconds(std::chrono::milliseconds d) {
  std::ostringstream out;
  out << d.count() / 1000.0 << " s";
  return out.str();
}

}  // namespace

LocalCluster::LocalCluster(fs::path dir, LocalClusterOptions options)
    : dir_(std::move(dir)), options_(std::move(options)) {}

fs::path LocalCluster::config_file(int k) const {
  return dir_ / ("node" + std::to_string(k) + ".conf");
}
fs::path LocalCluster::log_file(int k) const {
  return dir_ / ("node" + std::to_string(k) + ".log");
}
fs::path LocalCluster::pid_file(int k) const {
  return dir_ / ("node" + std::to_string(k) + ".pid");
}

pid_t LocalCluster::pid(int k) const {
  auto pid = read_pid_file(pid_file(k));
  return pid ? *pid : -1;
}

Endpoint LocalCluster::node_endpoint(int k) const {
  const auto i = static_cast<std::size_t>(k - 1);
  const std::string host = i < options_.hosts.size() ? options_.hosts[i] : "127.0.0.1";
  return Endpoint{host, static_cast<std::uint16_t>(base_port_ + k - 1)};
}

Status LocalCluster::kill(int k, int signal) {
  const pid_t p = pid(k);
  if (p <= 0)
    return Status::error("node " + std::to_string(k) + " has no pid file in " + dir_.string());
  if (::kill(p, signal) != 0) {
    return Status::error("cannot signal node " + std::to_string(k) + " (pid " + std::to_string(p) +
                         "): " + std::strerror(errno));
  }
  return Status::ok();
}

Result<ConnectOptions> LocalCluster::connect_options(int k) const {
  auto secret = read_secret_file(secret_file());
  if (!secret) return secret.status();
  ConnectOptions options;
  options.node = node_endpoint(k);
  options.secret = std::move(secret).value();
  options.secret_source = secret_file().string();
  options.connect_timeout = kProbeTimeout;
  options.handshake_timeout = kProbeTimeout;
  options.plaintext = options_.plaintext;
  return options;
}

std::vector<int> LocalCluster::pid_file_nodes() const {
  static const std::regex kPidFile("node([0-9]+)\\.pid");
  std::vector<int> nodes;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    std::smatch m;
    const std::string name = entry.path().filename().string();
    if (std::regex_match(name, m, kPidFile)) nodes.push_back(std::stoi(m[1]));
  }
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

std::vector<pid_t> LocalCluster::running_pids() const {
  std::vector<pid_t> pids;
  for (int k : pid_file_nodes()) {
    const pid_t p = pid(k);
    if (p > 0 && process_alive(p) && process_runs(p, "driftd")) pids.push_back(p);
  }
  return pids;
}

std::string LocalCluster::log_tail(int k, int lines) const {
  std::ifstream in(log_file(k));
  std::deque<std::string> tail;
  for (std::string line; std::getline(in, line);) {
    tail.push_back(line);
    if (static_cast<int>(tail.size()) > lines) tail.pop_front();
  }
  std::string out;
  for (const auto& line : tail) out += "  " + line + "\n";
  return out.empty() ? "  (empty)\n" : out;
}

Status LocalCluster::check_not_running() const {
  const auto pids = running_pids();
  if (pids.empty()) return Status::ok();
  std::string list;
  for (pid_t p : pids) list += (list.empty() ? "" : " ") + std::to_string(p);
  return Status::error("a local cluster is already running in " + dir_.string() + " (pids " + list +
                       "); run driftctl local down first");
}

Status LocalCluster::prepare(const fs::path& base_config, std::string& base_text) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Status::error("cannot create " + dir_.string() + ": " + ec.message());
  if (Status s = check_not_running(); !s) return s;
  for (int k : pid_file_nodes()) fs::remove(pid_file(k), ec);  // stale: their daemons are gone
  if (Status s = ensure_secret_file(secret_file()); !s) return s;
  if (base_config.empty()) return Status::ok();
  auto text = read_text(base_config);
  if (!text) return text.status();
  base_text = std::move(text).value();
  return Status::ok();
}

Status LocalCluster::start_node(int k, bool fresh_log) {
  const fs::path abs_dir = fs::absolute(dir_);
  LocalNodeSettings node;
  node.id = static_cast<std::uint32_t>(k);
  node.name = "node" + std::to_string(k);
  node.address = node_endpoint(k).host;
  node.port = node_endpoint(k).port;
  node.data_dir = abs_dir / node.name;
  node.secret_file = abs_dir / "secret";
  if (k > 1) node.seeds = {node_endpoint(1).to_string()};
  if (options_.http_port != 0) {
    node.http_listen = "127.0.0.1:" + std::to_string(options_.http_port + k - 1);
  }
  std::error_code ec;
  fs::create_directories(node.data_dir, ec);
  if (Status s = write_text(config_file(k), render_local_node_config(base_text_, node)); !s) {
    return s;
  }
  if (fresh_log) fs::remove(log_file(k), ec);
  std::vector<std::string> command{driftd_.string()};
  if (auto it = options_.commands.find(k); it != options_.commands.end() && !it->second.empty()) {
    command = it->second;
  }
  if (auto it = options_.launchers.find(k); it != options_.launchers.end() && !it->second.empty()) {
    command.insert(command.begin(), it->second.begin(), it->second.end());
  }
  auto program = find_program(command.front());
  if (!program) return Status::error("node " + std::to_string(k) + ": " + program.error());
  SpawnSpec spec{*program,
                 {command.begin() + 1, command.end()},
                 log_file(k),
                 options_.stop_with_parent};
  spec.args.insert(spec.args.end(), {"--config", fs::absolute(config_file(k)).string()});
  spec.args.insert(spec.args.end(), options_.extra_args.begin(), options_.extra_args.end());
  if (options_.plaintext) spec.args.push_back("--test.plaintext=true");
  if (auto it = options_.node_args.find(k); it != options_.node_args.end()) {
    spec.args.insert(spec.args.end(), it->second.begin(), it->second.end());
  }
  auto pid = spawn_detached(spec);
  if (!pid) return Status::error("node " + std::to_string(k) + ": " + pid.error());
  return write_pid_file(pid_file(k), *pid);
}

Status LocalCluster::wait_ready(int k, std::chrono::steady_clock::time_point deadline) const {
  auto connect = connect_options(k);
  if (!connect) return connect.status();
  std::string last = "no answer yet";
  for (;;) {
    if (!process_alive(pid(k))) return Status::error("driftd exited");
    auto reply = query_status(*connect, kProbeTimeout);
    if (reply && alive_members(*reply) == static_cast<std::size_t>(nodes_)) return Status::ok();
    last = reply ? "it sees " + std::to_string(alive_members(*reply)) + " of " +
                       std::to_string(nodes_) + " members alive"
                 : reply.error();
    if (std::chrono::steady_clock::now() >= deadline) {
      return Status::error("not ready after " + seconds(options_.ready_timeout) + ": " + last);
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

Status LocalCluster::failed_node(int k, const std::string& why) {
  const std::string text = "node " + std::to_string(k) + " (" + node_endpoint(k).to_string() +
                           ") failed to come up: " + why + "\nlast lines of " +
                           log_file(k).string() + ":\n" + log_tail(k, kLogTailLines);
  down();
  return Status::error(text);
}

Status LocalCluster::up(int nodes, std::uint16_t base_port, const fs::path& base_config) {
  if (nodes < 1) return Status::error("--nodes " + std::to_string(nodes) + ": must be at least 1");
  if (base_port == 0 || base_port + nodes - 1 > 65535) {
    return Status::error("--base-port " + std::to_string(base_port) + ": ports " +
                         std::to_string(base_port) + ".." + std::to_string(base_port + nodes - 1) +
                         " are not all valid TCP ports");
  }
  nodes_ = nodes;
  base_port_ = base_port;
  if (Status s = prepare(base_config, base_text_); !s) return s;
  auto driftd = options_.driftd.empty() ? find_driftd() : Result<fs::path>(options_.driftd);
  if (!driftd) return driftd.status();
  driftd_ = *driftd;
  for (int k = 1; k <= nodes; ++k) {
    if (Status s = start_node(k, true); !s) {
      down();
      return s;
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + options_.ready_timeout;
  for (int k = 1; k <= nodes; ++k) {
    if (Status s = wait_ready(k, deadline); !s) return failed_node(k, s.message());
  }
  return Status::ok();
}

Status LocalCluster::restart(int k, bool wait_ready) {
  if (k < 1 || k > nodes_ || driftd_.empty()) {
    return Status::error("node " + std::to_string(k) + " is not a node this cluster started");
  }
  if (const pid_t p = pid(k); p > 0 && process_alive(p)) {
    return Status::error("node " + std::to_string(k) + " (pid " + std::to_string(p) +
                         ") is still running; only a stopped daemon can be restarted");
  }
  if (Status s = start_node(k, false); !s) return s;
  if (!wait_ready) return Status::ok();
  auto connect = connect_options(k);
  if (!connect) return connect.status();
  const auto deadline = std::chrono::steady_clock::now() + options_.ready_timeout;
  for (;;) {
    if (!process_alive(pid(k))) return Status::error("node " + std::to_string(k) + ": driftd exited after restart");
    if (query_status(*connect, kProbeTimeout)) return Status::ok();
    if (std::chrono::steady_clock::now() >= deadline) {
      return Status::error("node " + std::to_string(k) + " did not answer after restart within " +
                           seconds(options_.ready_timeout));
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

std::vector<std::string> LocalCluster::down() {
  std::vector<std::string> lines;
  std::error_code ec;
  for (int k : pid_file_nodes()) {
    const pid_t p = pid(k);
    const std::string who = "node" + std::to_string(k) + " (pid " + std::to_string(p) + ")";
    if (p <= 0 || !process_alive(p) || !process_runs(p, "driftd")) {
      lines.push_back(who + " was not running");
    } else if (stop_process(p, options_.stop_grace) == StopOutcome::kKilled) {
      lines.push_back(who + " ignored SIGINT for " + seconds(options_.stop_grace) + "; killed");
    } else {
      lines.push_back(who + " stopped");
    }
    fs::remove(pid_file(k), ec);
  }
  return lines;
}

}  // namespace drift::ctl
