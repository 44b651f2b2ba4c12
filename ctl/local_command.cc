#include "ctl/local_command.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>

#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/local_cluster.h"
#include "ctl/node_command.h"
#include "ctl/node_setting.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

constexpr const char* kDefaultDir = "./drift-local";
constexpr int kMaxNodes = 64;  // one machine; a typo should not start a thousand daemons

struct UpArgs {
  int nodes = 0;
  int base_port = 7400;
  int http_port = 7480;
  std::string dir = kDefaultDir;
  std::string base_config;
  std::vector<std::string> settings;  // --set K:key=value
  std::vector<std::string> commands;  // --run K:COMMAND
  std::string driftd;
  double timeout_s = 20;
};

po::options_description up_options(UpArgs& a) {
  po::options_description d("local up options");
  auto add = d.add_options();
  add("nodes", po::value<int>(&a.nodes)->required()->value_name("N"), "number of daemons");
  add("base-port", po::value<int>(&a.base_port)->value_name("P"),
      "daemon K listens on 127.0.0.1:P+K-1 (default 7400)");
  add("http-port", po::value<int>(&a.http_port)->value_name("H"),
      "daemon K serves its dashboard and /metrics on http://127.0.0.1:H+K-1/ (default 7480; "
      "0: none)");
  add("dir", po::value<std::string>(&a.dir)->value_name("DIR"),
      "configs, logs, pid files and the secret (default ./drift-local)");
  add("base-config", po::value<std::string>(&a.base_config)->value_name("FILE"),
      "settings shared by all daemons, e.g. conf/local.conf");
  add("driftd", po::value<std::string>(&a.driftd)->value_name("PATH"),
      "the driftd to run (default: beside driftctl, else on PATH)");
  add("timeout", po::value<double>(&a.timeout_s)->value_name("SECONDS"),
      "how long to wait for the daemons to see each other (default 20)");
  add("set", po::value<std::vector<std::string>>(&a.settings)->composing()->value_name("K:key=value"),
      "a driftd config key for daemon K only, e.g. 3:emulate.speed=6 (repeatable; wins over the "
      "config files)");
  add("run", po::value<std::vector<std::string>>(&a.commands)->composing()->value_name("K:COMMAND"),
      "start daemon K as COMMAND instead of driftd, e.g. a driftd of another architecture: "
      "'2:qemu-s390x -L /usr/s390x-linux-gnu build-s390x/bin/driftd' (repeatable; config "
      "arguments follow)");
  add("help,h", "show this help");
  return d;
}

po::options_description down_options(std::string& dir) {
  po::options_description d("local down options");
  auto add = d.add_options();
  add("dir", po::value<std::string>(&dir)->value_name("DIR"),
      "the local cluster's directory (default ./drift-local)");
  add("help,h", "show this help");
  return d;
}

Status check_up_args(const UpArgs& a) {
  if (a.nodes < 1 || a.nodes > kMaxNodes) {
    return Status::error("--nodes " + std::to_string(a.nodes) + ": must be 1.." +
                         std::to_string(kMaxNodes));
  }
  if (a.base_port < 1 || a.base_port + a.nodes - 1 > 65535) {
    return Status::error("--base-port " + std::to_string(a.base_port) + ": ports " +
                         std::to_string(a.base_port) + ".." +
                         std::to_string(a.base_port + a.nodes - 1) + " are not all TCP ports");
  }
  if (a.http_port < 0 || (a.http_port > 0 && a.http_port + a.nodes - 1 > 65535)) {
    return Status::error("--http-port " + std::to_string(a.http_port) + ": ports " +
                         std::to_string(a.http_port) + ".." +
                         std::to_string(a.http_port + a.nodes - 1) +
                         " are not all TCP ports (0: no HTTP endpoint)");
  }
  if (a.http_port > 0 && a.http_port <= a.base_port + a.nodes - 1 &&
      a.base_port <= a.http_port + a.nodes - 1) {
    return Status::error("--http-port " + std::to_string(a.http_port) + " and --base-port " +
                         std::to_string(a.base_port) + ": their ports overlap for " +
                         std::to_string(a.nodes) + " nodes");
  }
  if (!(a.timeout_s > 0)) {
    return Status::error("--timeout " + plain_number(a.timeout_s) + ": must be more than 0");
  }
  return Status::ok();
}

int print_local_help() {
  UpArgs a;
  std::string dir;
  std::cout
      << "Usage: driftctl local up --nodes N [--base-port P] [--http-port H] [--dir DIR]\n"
         "                         [--base-config FILE] [--set K:key=value ...] [--run K:COMMAND ...]\n"
         "       driftctl local down [--dir DIR]\n\n"
         "up starts N daemons on 127.0.0.1 (node K: id K, port P+K-1) that share a fresh\n"
         "secret DIR/secret, and returns once each sees all N alive. down stops them.\n\n"
      << up_options(a) << "\n"
      << down_options(dir);
  return kExitOk;
}

int up(const std::vector<std::string>& args) {
  UpArgs a;
  const auto options = up_options(a);
  po::variables_map vm;
  const auto help = std::find(args.begin(), args.end(), "--help") != args.end() ||
                    std::find(args.begin(), args.end(), "-h") != args.end();
  if (help) return print_local_help();
  if (Status s = parse_args(args, options, {}, vm); !s) return usage_error("local up", s.message());
  if (Status s = check_up_args(a); !s) return usage_error("local up", s.message());
  auto node_args = node_arguments(a.settings, a.nodes);
  if (!node_args) return usage_error("local up", node_args.status().message());
  auto commands = node_commands(a.commands, a.nodes);
  if (!commands) return usage_error("local up", commands.status().message());
  LocalClusterOptions lo;
  lo.driftd = a.driftd;
  lo.http_port = static_cast<std::uint16_t>(a.http_port);
  lo.node_args = std::move(*node_args);
  lo.commands = std::move(*commands);
  lo.ready_timeout = std::chrono::milliseconds(static_cast<long>(a.timeout_s * 1000));
  LocalCluster cluster(a.dir, lo);
  if (Status s = cluster.up(a.nodes, static_cast<std::uint16_t>(a.base_port), a.base_config); !s) {
    return report_failure(kExitFailed, s.message());
  }
  for (int k = 1; k <= a.nodes; ++k) {
    std::cout << "node" << k << "  " << cluster.node_endpoint(k).to_string() << "  pid "
              << cluster.pid(k) << "  log " << cluster.log_file(k).string();
    if (a.http_port > 0) std::cout << "  http://127.0.0.1:" << a.http_port + k - 1 << "/";
    std::cout << "\n";
  }
  std::cout << a.nodes << " daemons up in " << a.dir << "; use: --node "
            << cluster.node_endpoint(1).to_string() << " --secret-file "
            << cluster.secret_file().string() << "\n";
  return kExitOk;
}

int down(const std::vector<std::string>& args) {
  std::string dir = kDefaultDir;
  po::variables_map vm;
  if (Status s = parse_args(args, down_options(dir), {}, vm); !s) {
    return usage_error("local down", s.message());
  }
  if (vm.count("help")) return print_local_help();
  LocalCluster cluster(dir);
  const auto lines = cluster.down();
  for (const auto& line : lines) std::cout << line << "\n";
  std::cout << (lines.empty() ? "no local cluster in " + dir
                              : "local cluster in " + dir + " is down")
            << "\n";
  return kExitOk;
}

}  // namespace

int local_command(const std::vector<std::string>& args) {
  if (args.empty()) return usage_error("local", "expected 'up' or 'down'");
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args.front() == "up") return up(rest);
  if (args.front() == "down") return down(rest);
  if (args.front() == "--help" || args.front() == "-h") return print_local_help();
  return usage_error("local", "unknown subcommand '" + args.front() + "' (expected up or down)");
}

}  // namespace drift::ctl
