#include "ctl/connection_settings.h"

#include <boost/program_options/value_semantic.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/owner_socket_client.h"
#include "ctl/secret_file.h"
#include "node/config/secret_exposure.h"
#include "node/net/access_token.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

void take_env(const char* name, std::string& value, std::string& origin) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return;
  value = text;
  origin = name;
}

}  // namespace

ConnectionSettings ConnectionSettings::from_environment() {
  ConnectionSettings s;
  take_env("DRIFT_NODE", s.node, s.node_origin);
  take_env("DRIFT_SECRET_FILE", s.secret_file, s.secret_origin);
  take_env("DRIFT_TOKEN_FILE", s.token_file, s.token_origin);
  std::string ignored;
  take_env("DRIFT_OWNER_SOCKET", s.owner_socket, ignored);
  return s;
}

po::options_description ConnectionSettings::options() {
  po::options_description d("Connection options");
  auto add = d.add_options();
  add("node",
      po::value<std::string>(&node)->value_name("HOST:PORT")->notifier([this](const std::string&) {
        node_origin = "--node";
      }),
      "daemon to talk to (default $DRIFT_NODE, else 127.0.0.1:7400)");
  add("secret-file",
      po::value<std::string>(&secret_file)
          ->value_name("FILE")
          ->notifier([this](const std::string&) { secret_origin = "--secret-file"; }),
      "cluster secret (default $DRIFT_SECRET_FILE, else ./drift-local/secret)");
  add("token-file",
      po::value<std::string>(&token_file)
          ->value_name("FILE")
          ->notifier([this](const std::string&) { token_origin = "--token-file"; }),
      "your token (driftctl token create), used instead of the secret (default "
      "$DRIFT_TOKEN_FILE)");
  add("owner-socket", po::value<std::string>(&owner_socket)->value_name("PATH"),
      "status, reclaim and release through this PC's owner socket, as the person logged in "
      "(default $DRIFT_OWNER_SOCKET, else /run/drift/driftd.sock when no secret is at hand)");
  add("cluster", po::value<std::string>(&cluster)->value_name("NAME"),
      "refuse a daemon of another cluster (default: accept the daemon's cluster)");
  add("connect-timeout", po::value<double>(&connect_timeout_s)->value_name("SECONDS"),
      "connect and handshake timeout (default 5)");
  return d;
}

Result<Endpoint> ConnectionSettings::endpoint() const {
  if (!(connect_timeout_s > 0)) {
    return Status::error("--connect-timeout " + plain_number(connect_timeout_s) +
                         ": must be more than 0 seconds");
  }
  auto ep = parse_endpoint(node);
  if (!ep) return Status::error(node_origin + ": " + ep.error());
  return ep;
}

std::optional<std::string> ConnectionSettings::owner_socket_to_use() const {
  if (!owner_socket.empty()) return owner_socket;
  if (node_origin != "default" || secret_origin != "default" || !token_file.empty()) {
    return std::nullopt;
  }
  std::error_code ec;
  if (read_secret_file(secret_file).is_ok() || !std::filesystem::exists(kDefaultOwnerSocket, ec)) {
    return std::nullopt;
  }
  return std::string(kDefaultOwnerSocket);
}

namespace {

// Once per file and run: a command may connect many times.
void warn_if_exposed(const std::string& file, const std::string& what) {
  static std::set<std::string> warned;
  if (warned.count(file)) return;
  if (auto exposed = exposure_warning(file, what)) {
    warned.insert(file);
    std::fprintf(stderr, "driftctl: warning: %s\n", exposed->c_str());
  }
}

}  // namespace

Result<ConnectOptions> ConnectionSettings::connect_options() const {
  auto ep = endpoint();
  if (!ep) return ep.status();
  ConnectOptions options;
  options.node = *ep;
  options.cluster = cluster;
  const auto timeout = std::chrono::milliseconds(static_cast<long>(connect_timeout_s * 1000));
  options.connect_timeout = timeout;
  options.handshake_timeout = timeout;
  if (!token_file.empty()) {
    std::ifstream in(token_file);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) return Status::error("cannot read the token file '" + token_file + "' (" + token_origin + ")");
    auto token = parse_token_file_text(text.str());
    if (!token) {
      return Status::error("token file '" + token_file + "' (" + token_origin + "): " + token.error());
    }
    warn_if_exposed(token_file, "token file");
    options.token_identity = token->identity;
    options.token_key = token->key;
    options.secret_source = "token file " + token_file;
    return options;
  }
  auto secret = read_secret_file(secret_file);
  if (!secret) {
    const std::string hint = secret_origin == "default"
                                 ? "the default; start a local cluster with 'driftctl local up' "
                                   "or pass --secret-file"
                                 : "from " + secret_origin;
    return Status::error(secret.error() + " (" + hint + ")");
  }
  warn_if_exposed(secret_file, "secret file");
  options.secret = std::move(secret).value();
  options.secret_source = secret_file;
  return options;
}

int ConnectionSettings::connect_failure_exit() const {
  if (!endpoint() || !token_file.empty() || secret_origin != "default") return kExitUsage;
  return kExitConnection;
}

}  // namespace drift::ctl
