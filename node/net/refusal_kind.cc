// The kinds of refusal (refusal_kind.h).
#include "node/net/refusal_kind.h"

namespace drift {

const char* refusal_kind(const std::string& reason) {
  const auto starts = [&](const char* prefix) { return reason.rfind(prefix, 0) == 0; };
  if (starts("refused a connection")) return "admission";
  if (starts("refused hello")) return "hello";
  if (starts("refused authentication")) return "authentication";
  if (starts("refused TLS handshake") || reason.find("handshake") != std::string::npos) {
    return "tls_handshake";
  }
  if (starts("refused ")) return "frame";  // "refused frame: …", "refused TaskMessage frame: …"
  return "other";
}

}  // namespace drift
