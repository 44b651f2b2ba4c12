#include "ctl/client_connection.h"

#include <cstdio>
#include <variant>

#include "ctl/exit_codes.h"
#include "protocol/codec.h"
#include "protocol/frame.h"
#include "protocol/handshake.h"

namespace drift::ctl {

namespace {

constexpr auto kSendTimeout = std::chrono::seconds(30);

}  // namespace

Hello client_hello(const std::string& cluster) {
  Hello hello;
  hello.cluster = cluster;
  hello.protocol_version = kProtocolVersion;
  hello.role = PeerRole::kClient;
  hello.node_id = 0;
  hello.incarnation = 0;
  hello.name = "driftctl";
  hello.listen_address = "";
  hello.nonce = random_nonce();
  return hello;
}

ClientConnection::ClientConnection(std::unique_ptr<TcpStream> stream, const ConnectOptions& options)
    : stream_(std::move(stream)),
      address_(options.node.to_string()),
      max_body_(options.max_body),
      our_hello_(client_hello(options.cluster)) {}

Result<std::unique_ptr<ClientConnection>> ClientConnection::open(const ConnectOptions& options) {
  std::shared_ptr<TlsContext> tls;
  if (!options.plaintext) {
    const bool token = !options.token_identity.empty();
    auto context = TlsContext::client(token ? options.token_identity : kMemberIdentity,
                                      auth_key(options));
    if (!context) {
      return Status::error("no TLS with " + options.node.to_string() + ": " + context.error() +
                           " (secret from " + options.secret_source + ")");
    }
    tls = *context;
  }
  auto stream = TcpStream::connect(options.node, Clock::now() + options.connect_timeout, tls);
  if (!stream) return stream.status();
  std::unique_ptr<ClientConnection> connection(
      new ClientConnection(std::move(stream).value(), options));
  if (Status s = connection->handshake(options); !s) return s;
  return connection;
}

std::vector<std::uint8_t> ClientConnection::auth_key(const ConnectOptions& options) {
  if (!options.token_identity.empty()) return options.token_key;
  if (options.plaintext) return options.secret;
  return tls_psk(options.secret, kMemberIdentity);
}

Status ClientConnection::handshake(const ConnectOptions& options) {
  handshake_began_ = Clock::now();
  const auto deadline = handshake_began_ + options.handshake_timeout;
  if (Status s = write_message(*stream_, our_hello_, deadline); !s) {
    return Status::error("handshake with " + address_ + " failed: " + s.message());
  }
  auto hello = receive_handshake(deadline);
  if (!hello) return hello.status();
  auto auth = receive_handshake(deadline);
  if (!auth) return auth.status();
  if (Status s = check_daemon(options, *hello, *auth); !s) return s;
  const HelloAuth proof{handshake_mac(auth_key(options), our_hello_, daemon_hello_)};
  return write_message(*stream_, proof, deadline);
}

// A handshake frame. The daemon hanging up at once means it refused us; hanging up after most of
// a handshake's time means its own deadline for the handshake passed (a daemon too busy to
// answer): that is a timeout, not a refusal, and is reported as one, with the time waited.
Result<WireMessage> ClientConnection::receive_handshake(Clock::time_point deadline) {
  auto msg = read_message(*stream_, kHandshakeMaxBody, deadline);
  if (msg) return msg;
  const double waited = std::chrono::duration<double>(Clock::now() - handshake_began_).count();
  char waited_text[32];
  std::snprintf(waited_text, sizeof waited_text, "%.1f s", waited);
  if (stream_->closed_by_peer() && waited < kRefusalWithin) {
    return Status::error(address_ + " refused the handshake (wrong secret or cluster?)");
  }
  if (stream_->closed_by_peer()) {
    return Status::error("handshake with " + address_ + " timed out: no answer in " +
                         waited_text + ", then the daemon gave up too (is it overloaded?)");
  }
  if (Clock::now() >= deadline) {
    return Status::error("handshake with " + address_ + " timed out: no answer in " +
                         waited_text + " (is the daemon overloaded or stopped?)");
  }
  return Status::error("handshake with " + address_ + " failed after " + waited_text + ": " +
                       msg.error());
}

Status ClientConnection::check_daemon(const ConnectOptions& options, const WireMessage& hello,
                                      const WireMessage& auth) {
  const auto* h = std::get_if<Hello>(&hello);
  const auto* a = std::get_if<HelloAuth>(&auth);
  if (h == nullptr || a == nullptr) {
    return Status::error(address_ + " is not a drift daemon: it answered the handshake with " +
                         to_string(type_of(h == nullptr ? hello : auth)));
  }
  daemon_hello_ = *h;
  // An empty cluster name means "whatever the daemon's cluster is": only the version is checked.
  const std::string expected = options.cluster.empty() ? h->cluster : options.cluster;
  if (Status s = check_hello(*h, expected); !s) {
    return Status::error(address_ + " refused: " + s.message());
  }
  if (Status s = verify_auth(auth_key(options), *h, our_hello_, *a); !s) {
    return Status::error(address_ + " does not share our secret (from " + options.secret_source +
                         "): " + s.message());
  }
  return Status::ok();
}

Status ClientConnection::send(const WireMessage& msg) {
  return send(msg, Clock::now() + kSendTimeout);
}

Status ClientConnection::send(const WireMessage& msg, Clock::time_point deadline) {
  Status s = write_message(*stream_, msg, deadline);
  if (!s) return Status::error("lost the connection to " + address_ + ": " + s.message());
  return s;
}

Result<WireMessage> ClientConnection::receive(Clock::time_point deadline) {
  auto msg = read_message(*stream_, max_body_, deadline);
  if (msg) {
    if (const auto* refused = std::get_if<Refused>(&*msg)) {
      return Status::error(kRefusedPrefix + address_ + ": " + refused->message);
    }
    return msg;
  }
  if (stream_->closed_by_peer()) {
    return Status::error(address_ + " closed the connection");
  }
  return Status::error("receiving from " + address_ + ": " + msg.error());
}

}  // namespace drift::ctl
