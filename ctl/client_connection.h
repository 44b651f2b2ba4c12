// driftctl's authenticated connection to one daemon. open() connects (with a timeout), runs
// TLS 1.3 with the key the cluster secret gives (node/net/tls_context.h), then the client side of
// the drift handshake (protocol/handshake.h):
//   client -> Hello;  daemon -> Hello, HelloAuth;  client checks both, -> HelloAuth.
// Afterwards send()/receive() exchange framed messages. Every error names the daemon's address.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ctl/frame_io.h"
#include "ctl/tcp_stream.h"
#include "node/net/endpoint.h"
#include "protocol/messages.h"
#include <drift/status.h>

namespace drift::ctl {

struct ConnectOptions {
  Endpoint node{"127.0.0.1", 7400};
  std::vector<std::uint8_t> secret;
  std::string secret_source;  // where the secret (or token) came from, for error messages
  // A person's token (node/net/access_token.h) instead of the secret: its TLS identity and key.
  std::string token_identity;
  std::vector<std::uint8_t> token_key;
  std::string cluster;        // empty: accept any cluster name
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds handshake_timeout{5000};
  std::uint32_t max_body = kClientMaxBody;
  bool plaintext = false;  // TESTING ONLY: for a daemon with test.plaintext
};

// Hello as driftctl sends it: role client, node id 0, a fresh nonce.
Hello client_hello(const std::string& cluster);

class ClientConnection {
 public:
  static Result<std::unique_ptr<ClientConnection>> open(const ConnectOptions& options);

  Status send(const WireMessage& msg);  // within 30 s
  Status send(const WireMessage& msg, Clock::time_point deadline);
  // The next message; an error when the deadline passes, the daemon hangs up or sends garbage,
  // or refuses the request (Refused: the error then starts with kRefusedPrefix, exit_codes.h).
  Result<WireMessage> receive(Clock::time_point deadline);

  const Hello& daemon_hello() const { return daemon_hello_; }
  const std::string& address() const { return address_; }

 private:
  ClientConnection(std::unique_ptr<TcpStream> stream, const ConnectOptions& options);
  Status handshake(const ConnectOptions& options);
  // What we prove ourselves with: the token's key, else the member identity's, else (in
  // plaintext) the secret itself.
  static std::vector<std::uint8_t> auth_key(const ConnectOptions& options);
  Status check_daemon(const ConnectOptions& options, const WireMessage& hello,
                      const WireMessage& auth);
  Result<WireMessage> receive_handshake(Clock::time_point deadline);

  // A daemon refuses a bad handshake as soon as it has read it; a close later than this (in
  // seconds) is its own handshake deadline passing.
  static constexpr double kRefusalWithin = 1.0;

  std::unique_ptr<TcpStream> stream_;
  Clock::time_point handshake_began_;
  std::string address_;
  std::uint32_t max_body_;
  Hello our_hello_;
  Hello daemon_hello_;
};

}  // namespace drift::ctl
