#include "node/http/loopback_host.h"

#include <arpa/inet.h>

namespace drift {

bool loopback_host(const std::string& host) {
  std::string name = host;
  if (name.starts_with('[')) {
    const auto close = name.find(']');
    if (close == std::string::npos) return false;
    const std::string rest = name.substr(close + 1);
    if (!rest.empty() && (rest[0] != ':' || rest.size() == 1 ||
                          rest.find_first_not_of("0123456789", 1) != std::string::npos)) {
      return false;
    }
    return name.substr(1, close - 1) == "::1";
  }
  if (const auto colon = name.find(':'); colon != std::string::npos) {
    const std::string port = name.substr(colon + 1);
    if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos) return false;
    name = name.substr(0, colon);
  }
  for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (name == "localhost") return true;
  in_addr v4{};
  return ::inet_pton(AF_INET, name.c_str(), &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127;
}

}  // namespace drift
