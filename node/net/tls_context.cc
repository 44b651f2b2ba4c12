#include "node/net/tls_context.h"

#include <openssl/err.h>
#include <openssl/hmac.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include <cstring>
#include <ctime>

#include "node/net/access_token.h"

namespace drift {

namespace {

// The TLS 1.3 suites whose hash is SHA-256, the hash of our PSKs.
constexpr const char* kSuites = "TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256";
constexpr unsigned char kAes128GcmSha256[] = {0x13, 0x01};
constexpr std::size_t kMaxIdentity = 512;

std::string openssl_error() {
  const unsigned long e = ERR_get_error();
  if (e == 0) return "unknown OpenSSL error";
  char text[256];
  ERR_error_string_n(e, text, sizeof text);
  return text;
}

// Where an accepted connection's proven identity is kept on its SSL object.
int identity_index() {
  static const int index = SSL_get_ex_new_index(
      0, nullptr, nullptr, nullptr,
      [](void*, void* ptr, CRYPTO_EX_DATA*, int, long, void*) { delete static_cast<std::string*>(ptr); });
  return index;
}

// A resumable-looking session holding `key` as the PSK, for TLS 1.3 with AES-128-GCM-SHA256.
SSL_SESSION* psk_session(SSL* ssl, const std::vector<std::uint8_t>& key) {
  const SSL_CIPHER* cipher = SSL_CIPHER_find(ssl, kAes128GcmSha256);
  if (cipher == nullptr) return nullptr;
  SSL_SESSION* session = SSL_SESSION_new();
  if (session == nullptr) return nullptr;
  if (!SSL_SESSION_set1_master_key(session, key.data(), key.size()) ||
      !SSL_SESSION_set_cipher(session, cipher) ||
      !SSL_SESSION_set_protocol_version(session, TLS1_3_VERSION)) {
    SSL_SESSION_free(session);
    return nullptr;
  }
  return session;
}

// Where an SSL_CTX keeps its TlsContext (not its app data: Asio's context owns that).
int owner_index() {
  static const int index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
  return index;
}

int refusal_index() {
  static const int index = SSL_get_ex_new_index(
      0, nullptr, nullptr, nullptr,
      [](void*, void* ptr, CRYPTO_EX_DATA*, int, long, void*) { delete static_cast<std::string*>(ptr); });
  return index;
}

void keep(SSL* ssl, int index, const std::string& text) {
  auto* kept = new std::string(text);
  if (!SSL_set_ex_data(ssl, index, kept)) delete kept;
}

TlsContext* owner_of(SSL* ssl) {
  return static_cast<TlsContext*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), owner_index()));
}

}  // namespace

std::vector<std::uint8_t> tls_psk(const std::vector<std::uint8_t>& secret,
                                  const std::string& identity) {
  static constexpr char kLabel[] = "drift tls psk 1";  // with its NUL: label and identity apart
  std::vector<std::uint8_t> input(kLabel, kLabel + sizeof kLabel);
  input.insert(input.end(), identity.begin(), identity.end());
  std::vector<std::uint8_t> out(32);
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()), input.data(), input.size(),
       out.data(), &length);
  out.resize(length);
  return out;
}

struct TlsCallbacks {
  // Client: offer our identity and key, if the hash OpenSSL asks for is ours.
  static int use_session(SSL* ssl, const EVP_MD* md, const unsigned char** id, std::size_t* idlen,
                         SSL_SESSION** sess) {
    TlsContext* self = owner_of(ssl);
    *id = nullptr;
    *idlen = 0;
    *sess = nullptr;
    // A certified member proves itself with its certificate instead.
    if (self == nullptr || self->key_.empty() || self->certified_members_) return 1;
    const SSL_CIPHER* cipher = SSL_CIPHER_find(ssl, kAes128GcmSha256);
    if (cipher == nullptr || (md != nullptr && md != SSL_CIPHER_get_handshake_digest(cipher))) {
      return 1;
    }
    SSL_SESSION* session = psk_session(ssl, self->key_);
    if (session == nullptr) return 0;
    *id = reinterpret_cast<const unsigned char*>(self->identity_.data());
    *idlen = self->identity_.size();
    *sess = session;
    return 1;
  }

  // Server: the key of an identity we know, derived from the secret; else none (the handshake
  // then fails, unless the peer has a certificate to fall back on).
  static int find_session(SSL* ssl, const unsigned char* id, std::size_t idlen,
                          SSL_SESSION** sess) {
    *sess = nullptr;
    TlsContext* self = owner_of(ssl);
    if (self == nullptr || self->secret_.empty() || idlen == 0 || idlen > kMaxIdentity) return 1;
    const std::string identity(reinterpret_cast<const char*>(id), idlen);
    auto principal = principal_of(identity, static_cast<std::int64_t>(std::time(nullptr)),
                                  self->revoked());
    if (!principal) {
      keep(ssl, refusal_index(), principal.error());
      return 1;
    }
    SSL_SESSION* session = psk_session(ssl, tls_psk(self->secret_, identity));
    if (session == nullptr) return 0;
    keep(ssl, identity_index(), identity);
    *sess = session;
    return 1;
  }
};

TlsContext::TlsContext() : context_(asio::ssl::context::tls) {}

Status TlsContext::prepare(TlsContext& self) {
  SSL_CTX* ctx = self.context_.native_handle();
  if (!SSL_CTX_set_ex_data(ctx, owner_index(), &self) ||
      !SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) ||
      !SSL_CTX_set_ciphersuites(ctx, kSuites)) {
    return Status::error("cannot set up TLS 1.3: " + openssl_error());
  }
  // No tickets (each connection proves the PSK afresh) and no PSK-only key exchange.
  SSL_CTX_set_num_tickets(ctx, 0);
  SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
  SSL_CTX_clear_options(ctx, SSL_OP_ALLOW_NO_DHE_KEX);
  // A peer that just closes its socket (as daemons and driftctl do) is a peer that left, not an
  // attack: frames carry their own lengths, so a cut is seen anyway.
  SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);  // the PSK authenticates both ends
  SSL_CTX_set_psk_use_session_callback(ctx, &TlsCallbacks::use_session);
  SSL_CTX_set_psk_find_session_callback(ctx, &TlsCallbacks::find_session);
  (void)identity_index();
  (void)refusal_index();
  return Status::ok();
}

Result<std::shared_ptr<TlsContext>> TlsContext::member(const std::vector<std::uint8_t>& secret,
                                                       std::set<std::string> revoked,
                                                       const TlsCertificates& certificates) {
  if (secret.empty()) return Status::error("no cluster secret for TLS");
  std::shared_ptr<TlsContext> self(new TlsContext());
  self->secret_ = secret;
  self->revoked_ = std::move(revoked);
  self->identity_ = kMemberIdentity;
  self->key_ = tls_psk(secret, kMemberIdentity);
  if (Status st = prepare(*self); !st) return st;
  if (certificates.configured()) {
    if (Status st = use_certificates(*self, certificates); !st) return st;
  }
  return self;
}

// Our certificate and key, and the CA every member's must be signed by; verified both ways.
Status TlsContext::use_certificates(TlsContext& self, const TlsCertificates& files) {
  const auto missing = [](const char* key) {
    return Status::error(std::string("cluster.") + key +
                         " is empty: certificates need cluster.tls_ca, tls_cert and tls_key");
  };
  if (files.ca.empty()) return missing("tls_ca");
  if (files.cert.empty()) return missing("tls_cert");
  if (files.key.empty()) return missing("tls_key");
  SSL_CTX* ctx = self.context_.native_handle();
  ERR_clear_error();
  if (SSL_CTX_load_verify_locations(ctx, files.ca.c_str(), nullptr) != 1) {
    return Status::error("cannot use " + files.ca + " (cluster.tls_ca) as CA certificates: " +
                         openssl_error());
  }
  if (SSL_CTX_use_certificate_chain_file(ctx, files.cert.c_str()) != 1) {
    return Status::error("cannot use " + files.cert + " (cluster.tls_cert) as a certificate: " +
                         openssl_error());
  }
  if (SSL_CTX_use_PrivateKey_file(ctx, files.key.c_str(), SSL_FILETYPE_PEM) != 1) {
    return Status::error("cannot use " + files.key + " (cluster.tls_key) as a private key: " +
                         openssl_error());
  }
  if (SSL_CTX_check_private_key(ctx) != 1) {
    return Status::error(files.key + " (cluster.tls_key) is not the key of " + files.cert +
                         " (cluster.tls_cert)");
  }
  // Our own certificate must pass the check we apply to everyone else's.
  X509_STORE_CTX* check = X509_STORE_CTX_new();
  const bool ours_ok = check != nullptr &&
                       X509_STORE_CTX_init(check, SSL_CTX_get_cert_store(ctx),
                                           SSL_CTX_get0_certificate(ctx), nullptr) == 1 &&
                       X509_verify_cert(check) == 1;
  const int why = check ? X509_STORE_CTX_get_error(check) : X509_V_ERR_OUT_OF_MEM;
  X509_STORE_CTX_free(check);
  if (!ours_ok) {
    return Status::error(files.cert + " (cluster.tls_cert) does not verify against " + files.ca +
                         " (cluster.tls_ca): " + X509_verify_cert_error_string(why));
  }
  // PSK handshakes (clients) never ask for a certificate; the others must show one. (OpenSSL
  // wants a session id context whenever it checks peers, sessions or not.)
  static constexpr unsigned char kSessionContext[] = "drift member";
  if (SSL_CTX_set_session_id_context(ctx, kSessionContext, sizeof kSessionContext - 1) != 1) {
    return Status::error("cannot set up TLS certificates: " + openssl_error());
  }
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  self.certified_members_ = true;
  return Status::ok();
}

Result<std::shared_ptr<TlsContext>> TlsContext::client(const std::string& identity,
                                                       std::vector<std::uint8_t> key) {
  if (identity.empty() || identity.size() > kMaxIdentity || key.empty()) {
    return Status::error("no TLS identity or key");
  }
  std::shared_ptr<TlsContext> self(new TlsContext());
  self->identity_ = identity;
  self->key_ = std::move(key);
  if (Status st = prepare(*self); !st) return st;
  return self;
}

std::string TlsContext::refusal(SSL* ssl) {
  const auto* kept = static_cast<const std::string*>(SSL_get_ex_data(ssl, refusal_index()));
  return kept ? *kept : std::string();
}

void TlsContext::set_revoked(std::set<std::string> revoked) {
  std::lock_guard lock(mutex_);
  revoked_ = std::move(revoked);
}

std::set<std::string> TlsContext::revoked() const {
  std::lock_guard lock(mutex_);
  return revoked_;
}

bool TlsContext::peer_certified(SSL* ssl) {
  return SSL_get0_peer_certificate(ssl) != nullptr && SSL_get_verify_result(ssl) == X509_V_OK;
}

std::string TlsContext::peer_identity(SSL* ssl) {
  const auto* kept = static_cast<const std::string*>(SSL_get_ex_data(ssl, identity_index()));
  return kept ? *kept : std::string();
}

}  // namespace drift
