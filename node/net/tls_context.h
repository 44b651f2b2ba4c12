// TLS 1.3 for every drift connection (docs/architecture.md §4), through OpenSSL and Asio's SSL
// stream. There are no certificates: both ends prove the cluster secret as an external
// pre-shared key (RFC 8446 §2.2), with an ephemeral key exchange on top (psk_dhe_ke), so that
// traffic recorded today stays unreadable if the secret leaks later. Each identity a client may
// offer has its own key, derived from the cluster secret (tls_psk), so a daemon verifies any of
// them with nothing but the secret: the member identity "drift-member" and people's tokens
// (access_token.h; expired and revoked ones refused). Session tickets are off: every connection
// is a full handshake with the PSK. After the handshake, the identity an accepted peer proved is
// on its SSL object (peer_identity); after a refusal, why (refusal).
//
// Optionally (cluster.tls_ca, tls_cert, tls_key) members also need a certificate of the
// cluster's own CA: a daemon then connects without a PSK, both ends present their certificate
// and check the other's against the CA (ECDHE, mutual authentication), and it accepts a member's
// PSK only from clients (driftctl run with the secret; PeerConnection refuses such a connection
// whose Hello says node). A leaked secret alone then lets no machine join. Tokens stay PSKs.
#pragma once

#include <asio/ssl/context.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <drift/status.h>
#include "node/net/access_token.h"

namespace drift {


// HMAC-SHA256(secret, "drift tls psk 1\0" || identity): the key of `identity`.
std::vector<std::uint8_t> tls_psk(const std::vector<std::uint8_t>& secret,
                                  const std::string& identity);

// PEM files of the cluster CA and of this member's certificate (chain) and private key; all
// empty: no certificates.
struct TlsCertificates {
  std::string ca;
  std::string cert;
  std::string key;

  bool configured() const { return !ca.empty() || !cert.empty() || !key.empty(); }
};

class TlsContext {
 public:
  // A daemon's: connects as the member identity, accepts it and tokens whose names are not in
  // `revoked`; with `certificates`, members prove theirs too (above). Errors name the file.
  static Result<std::shared_ptr<TlsContext>> member(const std::vector<std::uint8_t>& secret,
                                                    std::set<std::string> revoked = {},
                                                    const TlsCertificates& certificates = {});
  // A client's (driftctl): offers `identity` with its key; never accepts.
  static Result<std::shared_ptr<TlsContext>> client(const std::string& identity,
                                                    std::vector<std::uint8_t> key);

  asio::ssl::context& ssl() { return context_; }
  // The PSK identity the peer of an accepted connection proved ("" before the handshake).
  static std::string peer_identity(SSL* ssl);
  // Why an accepted connection's identity was refused ("" if it was not).
  static std::string refusal(SSL* ssl);
  // The peer presented a certificate that our cluster CA verified.
  static bool peer_certified(SSL* ssl);
  // Members must present a certificate of the cluster CA (certificates were configured).
  bool members_need_certificates() const { return certified_members_; }
  // Tokens of these names are refused from now on (any thread).
  void set_revoked(std::set<std::string> revoked);
  std::set<std::string> revoked() const;

  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

 private:
  TlsContext();
  static Status prepare(TlsContext& self);
  static Status use_certificates(TlsContext& self, const TlsCertificates& files);

  asio::ssl::context context_;
  std::vector<std::uint8_t> secret_;    // accepting side: the secret keys are derived from
  std::string identity_;                // connecting side: what we offer
  std::vector<std::uint8_t> key_;       // and its key
  mutable std::mutex mutex_;            // guards revoked_ (the beacon thread's handshakes too)
  std::set<std::string> revoked_;
  bool certified_members_ = false;

  friend struct TlsCallbacks;
};

}  // namespace drift
