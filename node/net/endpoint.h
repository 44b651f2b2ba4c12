// A node's network address as written in configs and member records: "host:port", with IPv6
// literals in brackets ("[::1]:7400"). Parsing is pure; names are not resolved here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <drift/status.h>

namespace drift {

struct Endpoint {
  std::string host;  // host name or IP literal, without brackets
  std::uint16_t port = 0;

  // "host:port", bracketing hosts that contain ':' (IPv6), so parse_endpoint(to_string())
  // round-trips.
  std::string to_string() const;
  // The host as an IP literal to connect to or bind: "localhost" is 127.0.0.1 (names are not
  // resolved here; anything else is returned as written).
  std::string literal_host() const { return host == "localhost" ? "127.0.0.1" : host; }
  friend bool operator==(const Endpoint&, const Endpoint&) = default;
};

// Accepts "host:port", "1.2.3.4:7400", "[::1]:7400". Refuses an empty host, a missing, non-numeric
// or out-of-range port (1..65535); the error names the text.
Result<Endpoint> parse_endpoint(std::string_view text);

}  // namespace drift
