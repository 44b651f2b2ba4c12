#include "ctl/cluster_command.h"

#include <arpa/inet.h>
#include <grp.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ctl/cluster_config.h"
#include "ctl/command_line.h"
#include "ctl/config_text.h"
#include "ctl/exit_codes.h"
#include "ctl/secret_file.h"
#include "ctl/unsigned_option.h"
#include "node/config/config.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace drift::ctl {

namespace {

constexpr const char* kConfig = "/etc/drift/driftd.conf";
constexpr const char* kSecret = "/etc/drift/secret";

struct ClusterArgs {
  std::string config = kConfig;
  std::string secret = kSecret;
  std::string output;  // join-config: stdout when empty
  std::uint64_t id = 0;
  std::string address;
  int port = 0;
  std::string name;
  std::string cluster_name;
};

po::options_description identity_options(ClusterArgs& a, bool init) {
  po::options_description d(init ? "cluster init options" : "cluster join-config options");
  auto add = d.add_options();
  add("id", unsigned_value(&a.id)->value_name("N"),
      init ? "this member's node.id (default 1)" : "the new member's node.id (required; unique)");
  add("address", po::value<std::string>(&a.address)->value_name("A"),
      init ? "this PC's address on the office network, which the others connect to (default: "
             "the first non-loopback IPv4 address of an interface that is up)"
           : "the new PC's address on the office network (required)");
  add("port", po::value<int>(&a.port)->value_name("P"),
      init ? "node.port (default: the config's, else 7400)" : "node.port (default: the member's)");
  add("name", po::value<std::string>(&a.name)->value_name("NAME"),
      "node.name shown by status (default: the host name)");
  if (init) {
    add("config", po::value<std::string>(&a.config)->value_name("FILE"),
        "the config to write; its other settings are kept, the old file as FILE.old (default "
        "/etc/drift/driftd.conf)");
    add("secret", po::value<std::string>(&a.secret)->value_name("FILE"),
        "where the new cluster secret goes; an existing one is kept as FILE.old (default "
        "/etc/drift/secret)");
    add("cluster-name", po::value<std::string>(&a.cluster_name)->value_name("NAME"),
        "cluster.name (default: the config's, else 'office')");
  } else {
    add("config", po::value<std::string>(&a.config)->value_name("FILE"),
        "a running member's config (default /etc/drift/driftd.conf, this PC's)");
    add("output", po::value<std::string>(&a.output)->value_name("FILE"),
        "write the config there (default: print it)");
  }
  add("help,h", "show this help");
  return d;
}

void print_help(bool init, const po::options_description& options) {
  if (init) {
    std::cout << "Usage: driftctl cluster init [--address A] [--id N] [options]\n\n"
                 "Makes this PC the first member of a new cluster: writes a new cluster secret\n"
                 "and sets this PC's identity (node.id, node.address, node.port), the cluster's\n"
                 "name and secret file in its driftd config, with no seeds. Then restart driftd\n"
                 "(systemctl restart driftd) and run 'driftctl cluster join-config' for each\n"
                 "next PC.\n\n";
  } else {
    std::cout << "Usage: driftctl cluster join-config --id N --address A [options]\n\n"
                 "Prints the driftd config of the next PC from this member's: the office's\n"
                 "settings kept, the new PC's identity set, this member (and its own seeds) as\n"
                 "its seeds. Copy it to the new PC as /etc/drift/driftd.conf, with the cluster's\n"
                 "secret, and start driftd there.\n\n";
  }
  std::cout << options;
}

Result<std::string> read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::error("cannot read '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first IPv4 address of an interface that is up and not loopback, with its interface.
std::optional<std::pair<std::string, std::string>> detect_address() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return std::nullopt;
  std::optional<std::pair<std::string, std::string>> found;
  for (ifaddrs* i = list; i && !found; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
    if (!(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK)) continue;
    char text[INET_ADDRSTRLEN] = {};
    const auto* in = reinterpret_cast<const sockaddr_in*>(i->ifa_addr);
    if (inet_ntop(AF_INET, &in->sin_addr, text, sizeof text)) found.emplace(text, i->ifa_name);
  }
  freeifaddrs(list);
  return found;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

// Parses `text` as driftd would, from a temporary directory (its secret file pointed at a
// stand-in there: the real one may not exist yet, or lives on another PC): the config we produce
// must start a daemon.
Status check_config(const std::string& text, const std::string& what) {
  const fs::path dir = fs::temp_directory_path() / ("driftctl-config-" + std::to_string(getpid()));
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::ofstream(dir / "secret") << "a stand-in secret of enough bytes\n";
  std::ofstream(dir / "driftd.conf")
      << config_text::set(text, "cluster.secret_file", (dir / "secret").string());
  const std::string file = (dir / "driftd.conf").string();
  const char* argv[] = {"driftd", "--config", file.c_str()};
  const auto parsed = parse_driftd_args(3, argv);
  fs::remove_all(dir, ec);
  if (const auto* e = std::get_if<ConfigError>(&parsed)) {
    return Status::error(what + " would not start driftd: " + e->message);
  }
  return Status::ok();
}

// Writes `text` to `path` through a temporary file renamed over it; an existing file is kept as
// path.old. Mode 0644 (the config holds no secret).
Status write_config(const fs::path& path, const std::string& text, std::string& kept) {
  const fs::path tmp = path.string() + ".new";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    out.close();
    if (!out) return Status::error("cannot write '" + tmp.string() + "': " + std::strerror(errno));
  }
  std::error_code ec;
  fs::permissions(tmp, fs::perms(0644), ec);
  if (fs::exists(path, ec)) {
    kept = path.string() + ".old";
    fs::copy_file(path, kept, fs::copy_options::overwrite_existing, ec);
    if (ec) return Status::error("cannot keep '" + path.string() + "' as '" + kept + "': " + ec.message());
  }
  fs::rename(tmp, path, ec);
  if (ec) return Status::error("cannot replace '" + path.string() + "': " + ec.message());
  return Status::ok();
}

// A new random secret at `path`, readable by the drift group (the daemon's) where that group
// exists; an existing secret is moved to path.old.
Status write_secret(const fs::path& path, std::string& kept) {
  std::error_code ec;
  if (fs::exists(path, ec)) {
    kept = path.string() + ".old";
    fs::rename(path, kept, ec);
    if (ec) return Status::error("cannot keep '" + path.string() + "' as '" + kept + "': " + ec.message());
  }
  if (Status s = ensure_secret_file(path); !s) return s;
  if (const group* g = getgrnam("drift"); g && geteuid() == 0) {
    if (chown(path.c_str(), 0, g->gr_gid) != 0 || chmod(path.c_str(), 0640) != 0) {
      return Status::error("cannot give '" + path.string() + "' to group drift: " +
                           std::strerror(errno));
    }
  }
  return Status::ok();
}

Status check_identity(const ClusterArgs& a, bool init) {
  if (a.id == 0 || a.id > 0xffffffffull) {
    return Status::error("--id " + std::to_string(a.id) + ": must be 1..4294967295");
  }
  if (a.port < 0 || a.port > 65535) {
    return Status::error("--port " + std::to_string(a.port) + ": must be 1..65535");
  }
  if (a.address.empty() && !init) return Status::error("--address is required");
  if (a.address.empty()) return Status::ok();
  if (auto e = parse_endpoint(a.address + ":7400"); !e || a.address.find(':') != std::string::npos) {
    return Status::error("--address '" + a.address + "': expected a host name or IPv4 address "
                         "without a port (the port is --port)");
  }
  return Status::ok();
}

int init(ClusterArgs a) {
  auto base = fs::exists(a.config) ? read_text(a.config) : Result<std::string>(std::string());
  if (!base) return report_failure(kExitFailed, base.error());
  if (a.address.empty()) {
    const auto detected = detect_address();
    if (!detected) {
      return report_failure(kExitFailed, "cluster init: no network interface with an IPv4 "
                                         "address is up; give this PC's address with --address");
    }
    a.address = detected->first;
    std::cout << "address " << a.address << " (of " << detected->second
              << "; --address chooses another)\n";
  }
  MemberIdentity node{static_cast<std::uint32_t>(a.id), a.address,
                      static_cast<std::uint16_t>(a.port), a.name};
  const std::string cluster =
      !a.cluster_name.empty() ? a.cluster_name
                              : config_text::get(*base, "cluster.name").value_or("office");
  const std::string header =
      "# driftd's config (every key: driftd --help), written by 'driftctl cluster init' on " +
      host_name() + ":\n# the first member of cluster '" + cluster +
      "'. The next PCs' configs: driftctl cluster join-config.\n";
  const std::string text = render_init_config(*base, node, cluster, a.secret, header);
  if (Status s = check_config(text, "the config"); !s) return report_failure(kExitFailed, s.message());
  std::string kept_secret, kept_config;
  if (Status s = write_secret(a.secret, kept_secret); !s) return report_failure(kExitFailed, s.message());
  if (Status s = write_config(a.config, text, kept_config); !s) {
    return report_failure(kExitFailed, s.message());
  }
  std::cout << "new cluster '" << cluster << "'\n"
            << "  secret " << a.secret << (kept_secret.empty() ? "" : " (the old one kept as " + kept_secret + ")") << "\n"
            << "  config " << a.config << ": node " << node.id << " at " << a.address << ":"
            << config_text::get(text, "node.port").value_or("7400")
            << (kept_config.empty() ? "" : " (the old one kept as " + kept_config + ")") << "\n"
            << "Next: restart driftd here (systemctl restart driftd); for each next PC,\n"
               "  driftctl cluster join-config --id N --address ADDRESS > driftd.conf\n"
               "and copy driftd.conf and "
            << a.secret << " to its /etc/drift/.\n";
  return kExitOk;
}

int join_config(const ClusterArgs& a) {
  auto member = read_text(a.config);
  if (!member) {
    return report_failure(kExitFailed, member.error() + " (--config names a running member's config)");
  }
  MemberIdentity node{static_cast<std::uint32_t>(a.id), a.address,
                      static_cast<std::uint16_t>(a.port), a.name};
  const std::string header =
      "# driftd's config (every key: driftd --help), written by 'driftctl cluster join-config' "
      "from\n# " + a.config + " on " + host_name() + ": node " + std::to_string(a.id) + " at " +
      a.address + ". Copy it to the new PC as\n# /etc/drift/driftd.conf, with the cluster's secret.\n";
  auto text = render_join_config(*member, node, header);
  if (!text) return report_failure(kExitFailed, "cluster join-config: " + text.error());
  if (Status s = check_config(*text, "the new config"); !s) {
    return report_failure(kExitFailed, s.message());
  }
  if (a.output.empty()) {
    std::cout << *text;
    return kExitOk;
  }
  std::string kept;
  if (Status s = write_config(a.output, *text, kept); !s) return report_failure(kExitFailed, s.message());
  std::cerr << "wrote " << a.output << (kept.empty() ? "" : " (the old one kept as " + kept + ")") << "\n";
  return kExitOk;
}

}  // namespace

int cluster_command(const std::vector<std::string>& args) {
  const std::string sub = args.empty() ? "" : args[0];
  if (sub != "init" && sub != "join-config") {
    if (sub == "--help" || sub == "-h") {
      std::cout << "Usage: driftctl cluster init [options]          make this PC a new cluster's "
                   "first member\n"
                   "       driftctl cluster join-config --id N --address A [options]\n"
                   "                                                print the next PC's config\n";
      return kExitOk;
    }
    return usage_error("cluster", sub.empty() ? "missing 'init' or 'join-config'"
                                              : "unknown subcommand '" + sub +
                                                    "' (expected init or join-config)");
  }
  const bool is_init = sub == "init";
  ClusterArgs a;
  if (is_init) a.id = 1;
  const auto options = identity_options(a, is_init);
  po::variables_map vm;
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (Status s = parse_args(rest, options, {}, vm); !s) return usage_error("cluster " + sub, s.message());
  if (vm.count("help")) return print_help(is_init, options), kExitOk;
  if (!is_init && !vm.count("id")) return usage_error("cluster " + sub, "--id is required");
  if (Status s = check_identity(a, is_init); !s) return usage_error("cluster " + sub, s.message());
  return is_init ? init(a) : join_config(a);
}

}  // namespace drift::ctl
