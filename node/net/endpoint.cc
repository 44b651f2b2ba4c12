#include "node/net/endpoint.h"

#include <charconv>

namespace drift {

namespace {

// Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "..." + std::string&&.
Status refuse(std::string_view text, std::string_view why) {
  std::string message = "'";
  message.append(text).append("' is not host:port: ").append(why);
  return Status::error(message);
}

// Splits "host:port" or "[v6]:port" into host and port text; an empty host means "malformed".
bool split_host_port(std::string_view text, std::string_view& host, std::string_view& port) {
  if (text.starts_with('[')) {
    const auto close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return false;
    }
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
    return true;
  }
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) return false;
  host = text.substr(0, colon);
  port = text.substr(colon + 1);
  // An unbracketed host with a ':' is an IPv6 literal whose port cannot be told apart.
  return host.find(':') == std::string_view::npos;
}

}  // namespace

std::string Endpoint::to_string() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Result<Endpoint> parse_endpoint(std::string_view text) {
  std::string_view host, port_text;
  if (!split_host_port(text, host, port_text)) {
    return refuse(text, "expected host:port or [ipv6]:port");
  }
  if (host.empty()) return refuse(text, "empty host");
  if (host.find_first_of(" \t[],") != std::string_view::npos) return refuse(text, "bad host");
  if (port_text.empty()) return refuse(text, "missing port");
  std::uint32_t port = 0;
  const auto* end = port_text.data() + port_text.size();
  const auto [ptr, ec] = std::from_chars(port_text.data(), end, port);
  if (ec == std::errc::result_out_of_range) return refuse(text, "port must be 1..65535");
  if (ec != std::errc() || ptr != end) return refuse(text, "port is not a number");
  if (port == 0 || port > 65535) return refuse(text, "port must be 1..65535");
  return Endpoint{std::string(host), static_cast<std::uint16_t>(port)};
}

}  // namespace drift
