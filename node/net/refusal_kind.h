// Why a connection was refused, in a few words that stay the same (for /metrics' reason label):
// the reason a PeerConnection closed with ("refused frame: …", "TLS handshake: …") sorted into
// a fixed set, so a peer's text never makes a new label. Pure.
#pragma once

#include <string>

namespace drift {

// "admission" (too many connections), "tls_handshake", "hello", "authentication", "frame",
// or "other".
const char* refusal_kind(const std::string& reason);

}  // namespace drift
