// The authenticated handshake (docs/architecture.md §4). Both sides send Hello with a fresh nonce; each
// answers with HelloAuth = HMAC-SHA256(secret, transcript) proving it knows the cluster secret.
// The transcript binds both hellos and the direction, so a proof cannot be replayed or reflected.
// A peer is refused before anything else is read if its cluster, version or proof is wrong.
#pragma once

#include <string>
#include <vector>

#include "protocol/messages.h"
#include <drift/status.h>

namespace drift {

Nonce random_nonce();

// The proof that `prover` (who sent `prover_hello`) knows the secret, answering `verifier_hello`.
Mac handshake_mac(const std::vector<std::uint8_t>& secret, const Hello& prover_hello,
                  const Hello& verifier_hello);

// Checks the peer's Hello against our cluster name and protocol version.
Status check_hello(const Hello& peer, const std::string& cluster);

// Constant-time check of the peer's proof.
Status verify_auth(const std::vector<std::uint8_t>& secret, const Hello& peer_hello,
                   const Hello& our_hello, const HelloAuth& auth);

}  // namespace drift
