// Handshake proofs with OpenSSL: HMAC-SHA256 under the cluster secret over a transcript of
//   u32 length | "drift-hello-auth-v1" | u32 length | prover's Hello body | u32 length | verifier's
//   Hello body
// (lengths little-endian). Both nonces and the direction are bound, so a proof is good for one
// connection and one side only.
#include "protocol/handshake.h"

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cstdio>
#include <span>
#include <stdexcept>
#include <string_view>

#include <drift/archives.h>
#include "protocol/frame.h"

namespace drift {
namespace {

constexpr std::string_view kTranscriptLabel = "drift-hello-auth-v1";

[[noreturn]] void throw_openssl_error(const char* what) {
  char reason[256] = "no OpenSSL error queued";
  if (unsigned long code = ERR_get_error(); code != 0)
    ERR_error_string_n(code, reason, sizeof(reason));
  throw std::runtime_error(std::string(what) + " failed: " + reason);
}

void append_part(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> part) {
  const auto n = static_cast<std::uint32_t>(part.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
  out.insert(out.end(), part.begin(), part.end());
}

std::vector<std::uint8_t> transcript(const Hello& prover, const Hello& verifier) {
  std::vector<std::uint8_t> out;
  const auto* label = reinterpret_cast<const std::uint8_t*>(kTranscriptLabel.data());
  append_part(out, {label, kTranscriptLabel.size()});
  append_part(out, encode_portable(prover));
  append_part(out, encode_portable(verifier));
  return out;
}

// A peer-supplied string made safe for a log line: quoted, control bytes escaped, length capped.
std::string quoted(const std::string& s) {
  constexpr std::size_t kMaxShown = 64;
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f || c == '\'' || c == '\\') {
      char esc[8];
      std::snprintf(esc, sizeof(esc), "\\x%02x", c);
      out += esc;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > kMaxShown) out += "...";
  return out + "'";
}

}  // namespace

Nonce random_nonce() {
  Nonce nonce{};
  if (RAND_bytes(nonce.data(), static_cast<int>(nonce.size())) != 1) {
    throw_openssl_error("RAND_bytes");  // never fall back to a predictable nonce
  }
  return nonce;
}

Mac handshake_mac(const std::vector<std::uint8_t>& secret, const Hello& prover_hello,
                  const Hello& verifier_hello) {
  const std::vector<std::uint8_t> data = transcript(prover_hello, verifier_hello);
  static const std::uint8_t kNoKey = 0;
  Mac mac{};
  unsigned int mac_len = 0;
  if (HMAC(EVP_sha256(), secret.empty() ? &kNoKey : secret.data(), static_cast<int>(secret.size()),
           data.data(), data.size(), mac.data(), &mac_len) == nullptr ||
      mac_len != mac.size()) {
    throw_openssl_error("HMAC-SHA256");  // never fall back to a predictable proof
  }
  return mac;
}

Status check_hello(const Hello& peer, const std::string& cluster) {
  if (peer.protocol_version != kProtocolVersion) {
    return Status::error("peer protocol version " + std::to_string(peer.protocol_version) +
                         " differs from ours (" + std::to_string(kProtocolVersion) + ")");
  }
  const bool anonymous_client = peer.role == PeerRole::kClient && peer.cluster.empty();
  if (!anonymous_client && peer.cluster != cluster) {
    return Status::error("peer cluster " + quoted(peer.cluster) + " differs from ours " +
                         quoted(cluster));
  }
  if (peer.role == PeerRole::kNode && peer.node_id == 0) {
    return Status::error("peer node " + quoted(peer.name) +
                         " has node id 0; nodes need a nonzero id");
  }
  return Status::ok();
}

Status verify_auth(const std::vector<std::uint8_t>& secret, const Hello& peer_hello,
                   const Hello& our_hello, const HelloAuth& auth) {
  Mac expected{};
  try {
    expected = handshake_mac(secret, peer_hello, our_hello);
  } catch (const std::runtime_error& e) {
    return Status::error(std::string("cannot check the peer's handshake proof: ") + e.what());
  }
  if (CRYPTO_memcmp(expected.data(), auth.mac.data(), expected.size()) != 0) {
    return Status::error("peer's handshake proof does not match (wrong cluster secret?)");
  }
  return Status::ok();
}

}  // namespace drift
