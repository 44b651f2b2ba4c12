// Which daemon driftctl talks to and how it proves itself: --node, --secret-file or --token-file,
// --cluster, --connect-timeout. Defaults come from DRIFT_NODE, DRIFT_SECRET_FILE and
// DRIFT_TOKEN_FILE, else 127.0.0.1:7400 and ./drift-local/secret (what `driftctl local up`
// creates); a token file, when one is given, is used instead of the secret. Each value remembers where it came
// from, so errors can say "--node 'x'" or "DRIFT_NODE 'x'".
#pragma once

#include <boost/program_options/options_description.hpp>
#include <optional>
#include <string>

#include "ctl/client_connection.h"
#include "node/net/endpoint.h"

namespace drift::ctl {

inline constexpr const char* kDefaultNode = "127.0.0.1:7400";
inline constexpr const char* kDefaultSecretFile = "./drift-local/secret";

struct ConnectionSettings {
  std::string node = kDefaultNode;
  std::string node_origin = "default";
  std::string secret_file = kDefaultSecretFile;
  std::string secret_origin = "default";
  std::string token_file;  // empty: none
  std::string token_origin;
  std::string owner_socket;  // --owner-socket / DRIFT_OWNER_SOCKET; empty: see owner_socket_to_use
  std::string cluster;
  double connect_timeout_s = 5;

  // Defaults, then the environment.
  static ConnectionSettings from_environment();
  // The options that set these fields (shared by driftctl's global options and every command).
  boost::program_options::options_description options();

  // --node parsed; a usage error naming the value and its origin.
  Result<Endpoint> endpoint() const;
  // The owner's local socket status, reclaim and release go to instead of --node: the one given,
  // else the package's (/run/drift/driftd.sock) when nothing else was given and there is no
  // secret to use (a person at their own PC).
  std::optional<std::string> owner_socket_to_use() const;
  // Endpoint plus the token, else the secret read from the secret file; errors name the file.
  Result<ConnectOptions> connect_options() const;
  // What a failed connect_options() exits with: kExitUsage when a value the person gave is wrong
  // (--node, --connect-timeout, a secret or token file named by option or environment),
  // kExitConnection when only the default secret is missing (no local cluster to reach).
  int connect_failure_exit() const;
};

}  // namespace drift::ctl
