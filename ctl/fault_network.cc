// Network namespaces, veths, a bridge and nftables rules for partitions (fault_network.h).
#include "ctl/fault_network.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <regex>
#include <set>
#include <sstream>

namespace drift::ctl {

namespace {

const char* const kIp = "/usr/sbin/ip";
const char* const kNft = "/usr/sbin/nft";
const char* const kNsenter = "/usr/bin/nsenter";
const char* const kPrefix = "dft";  // dft<pid>n<k> namespaces, dfb<pid> bridges, dfv<pid>.<k> veths

// Runs a tool, waits for it; the error quotes the command line and what it printed.
Result<std::string> run_tool(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Status::error(std::string("pipe: ") + std::strerror(errno));
  std::vector<char*> args;
  std::vector<std::string> copy = argv;
  for (auto& a : copy) args.push_back(a.data());
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string line;
    for (const auto& a : argv) line += (line.empty() ? "" : " ") + a;
    return Status::error("'" + line + "' failed: " + (out.empty() ? "no output" : out));
  }
  return out;
}

bool alive(pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }

// Namespaces, bridges and tables left by a harness that died without cleaning up.
void remove_leftovers() {
  static const std::regex kNs("dft([0-9]+)n[0-9]+");
  static const std::regex kTable("table bridge (drift_fault_([0-9]+))");
  static const std::regex kBridge("[0-9]+: (dfb([0-9]+)):");
  std::set<std::string> bridges;
  if (auto list = run_tool({kIp, "netns", "list"})) {
    for (std::sregex_iterator it(list->begin(), list->end(), kNs), end; it != end; ++it) {
      if (!alive(std::stoi((*it)[1]))) run_tool({kIp, "netns", "delete", it->str()});
    }
  }
  if (auto links = run_tool({kIp, "-o", "link", "show", "type", "bridge"})) {
    for (std::sregex_iterator it(links->begin(), links->end(), kBridge), end; it != end; ++it) {
      if (!alive(std::stoi((*it)[2]))) run_tool({kIp, "link", "delete", (*it)[1]});
    }
  }
  if (auto tables = run_tool({kNft, "list", "tables"})) {
    for (std::sregex_iterator it(tables->begin(), tables->end(), kTable), end; it != end; ++it) {
      if (!alive(std::stoi((*it)[2]))) run_tool({kNft, "delete", "table", "bridge", (*it)[1]});
    }
  }
}

// A 10.77.X.0/24 no interface of this machine uses.
Result<int> free_subnet() {
  auto addrs = run_tool({kIp, "-o", "-4", "addr", "show"});
  if (!addrs) return addrs.status();
  for (int i = 0; i < 250; ++i) {
    const int x = 1 + (static_cast<int>(::getpid()) + i) % 250;
    if (addrs->find(" 10.77." + std::to_string(x) + ".") == std::string::npos) return x;
  }
  return Status::error("no free subnet 10.77.X.0/24 (1..250 all in use)");
}

}  // namespace

Result<std::unique_ptr<FaultNetwork>> FaultNetwork::create(int nodes) {
  if (::geteuid() != 0) {
    return Status::error("partitions need root (network namespaces and nftables); run "
                         "driftctl fault run as root, or drop the partition from the scenario");
  }
  for (const char* tool : {kIp, kNft}) {
    if (::access(tool, X_OK) != 0) {
      return Status::error(std::string("partitions need ") + tool + " (" + std::strerror(errno) +
                           "); install iproute2 and nftables");
    }
  }
  if (nodes > 253) return Status::error("network = netns: at most 253 nodes");
  remove_leftovers();
  auto subnet = free_subnet();
  if (!subnet) return subnet.status();
  std::unique_ptr<FaultNetwork> net(new FaultNetwork(nodes, *subnet));
  if (Status s = net->build(); !s) return s;  // the destructor removes what was made
  return net;
}

FaultNetwork::FaultNetwork(int nodes, int subnet)
    : nodes_(nodes),
      subnet_(subnet),
      owner_(::getpid()),
      bridge_(std::string("dfb") + std::to_string(owner_)),
      table_("drift_fault_" + std::to_string(owner_)) {}

FaultNetwork::~FaultNetwork() { remove_all(); }

std::string FaultNetwork::netns(int k) const {
  return std::string(kPrefix) + std::to_string(owner_) + "n" + std::to_string(k);
}

std::string FaultNetwork::host(int k) const {
  return "10.77." + std::to_string(subnet_) + "." + std::to_string(k);
}

// nsenter, not `ip netns exec`: that one also remounts /sys for the namespace, which hides
// /sys/fs/cgroup, and the daemons would run their workers without their cgroups (RLIMIT_AS in
// place of a memory cgroup, which a sanitizer-built app's shadow memory cannot live under).
std::vector<std::string> FaultNetwork::launcher(int k) const {
  return {kNsenter, "--net=/run/netns/" + netns(k), "--"};
}

Status FaultNetwork::build() {
  const std::string net = "10.77." + std::to_string(subnet_) + ".";
  for (const auto& cmd : std::vector<std::vector<std::string>>{
           {kIp, "link", "add", bridge_, "type", "bridge"},
           {kIp, "addr", "add", net + "254/24", "dev", bridge_},
           {kIp, "link", "set", bridge_, "up"}}) {
    if (auto r = run_tool(cmd); !r) return r.status();
    bridge_made_ = true;
  }
  for (int k = 1; k <= nodes_; ++k) {
    const std::string ns = netns(k);
    const std::string veth = "dfv" + std::to_string(owner_) + "." + std::to_string(k);
    const std::string peer = "eth0";
    if (auto r = run_tool({kIp, "netns", "add", ns}); !r) return r.status();
    made_.push_back(k);
    for (const auto& cmd : std::vector<std::vector<std::string>>{
             {kIp, "link", "add", veth, "type", "veth", "peer", "name", peer, "netns", ns},
             {kIp, "link", "set", veth, "master", bridge_, "up"},
             {kIp, "-n", ns, "addr", "add", host(k) + "/24", "dev", peer},
             {kIp, "-n", ns, "link", "set", peer, "up"},
             {kIp, "-n", ns, "link", "set", "lo", "up"}}) {
      if (auto r = run_tool(cmd); !r) return r.status();
    }
  }
  for (const auto& cmd : std::vector<std::vector<std::string>>{
           {kNft, "add", "table", "bridge", table_},
           {kNft, "add", "chain", "bridge", table_, "forward",
            "{ type filter hook forward priority 0 ; policy accept ; }"}}) {
    if (auto r = run_tool(cmd); !r) return r.status();
    table_made_ = true;
  }
  return Status::ok();
}

Status FaultNetwork::cut(const std::vector<int>& a, const std::vector<int>& b) {
  const auto set_of = [&](const std::vector<int>& nodes) {
    std::string s;
    for (int k : nodes) s += (s.empty() ? "" : ", ") + host(k);
    return "{ " + s + " }";
  };
  for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    auto r = run_tool({kNft, "add", "rule", "bridge", table_, "forward", "ip", "saddr", set_of(from),
                       "ip", "daddr", set_of(to), "drop"});
    if (!r) return r.status();
  }
  return Status::ok();
}

Status FaultNetwork::heal() {
  auto r = run_tool({kNft, "flush", "chain", "bridge", table_, "forward"});
  return r.status();
}

// Best effort, in reverse: a namespace's veth goes with it; the bridge and table last.
void FaultNetwork::remove_all() {
  if (table_made_) run_tool({kNft, "delete", "table", "bridge", table_});
  for (int k : made_) run_tool({kIp, "netns", "delete", netns(k)});
  if (bridge_made_) run_tool({kIp, "link", "delete", bridge_});
  table_made_ = bridge_made_ = false;
  made_.clear();
}

}  // namespace drift::ctl
