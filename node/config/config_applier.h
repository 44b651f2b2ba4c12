// Turning the configuration's strings into values (node/config/config.h): Applier checks one
// key at a time against its range or choices, and the first error names the key, its value and
// where it came from. Internal to node/config/.
#pragma once

#include <arpa/inet.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "node/config/config.h"
#include "node/config/config_keys.h"
#include "node/config/config_sources.h"

namespace drift::config {

struct Raw {
  std::string key;
  std::string value;
  std::string origin;
};

inline Status invalid(const Raw& r, const std::string& problem) {
  return Status::error(r.key + " = '" + r.value + "' (" + r.origin + "): " + problem);
}

inline std::string range_text(std::uint64_t lo, std::uint64_t hi) {
  return "must be " + std::to_string(lo) + ".." + std::to_string(hi);
}

inline Result<std::uint64_t> parse_whole(const Raw& r, std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t v = 0;
  const char* end = r.value.data() + r.value.size();
  const auto [ptr, ec] = std::from_chars(r.value.data(), end, v);
  if (ec == std::errc::result_out_of_range) return invalid(r, range_text(lo, hi));
  if (ec != std::errc() || ptr != end) return invalid(r, "not a whole number");
  if (v < lo || v > hi) return invalid(r, range_text(lo, hi));
  return v;
}

inline Result<double> parse_real(const Raw& r, double lo, bool lo_inclusive) {
  double v = 0;
  const char* end = r.value.data() + r.value.size();
  const auto [ptr, ec] = std::from_chars(r.value.data(), end, v);
  if (ec != std::errc() || ptr != end || !std::isfinite(v)) return invalid(r, "not a number");
  if (v < lo || (!lo_inclusive && v == lo)) {
    return invalid(r, std::string("must be ") + (lo_inclusive ? ">= " : "> ") + number_text(lo));
  }
  return v;
}

inline bool is_ip_or_localhost(const std::string& text) {
  unsigned char buf[sizeof(in6_addr)];
  return text == "localhost" || inet_pton(AF_INET, text.c_str(), buf) == 1 ||
         inet_pton(AF_INET6, text.c_str(), buf) == 1;
}

inline std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "drift-node";
  return buf;
}

// Applies the stored values to a NodeConfig one key at a time; after the first error the rest
// are skipped and status() reports it.
class Applier {
 public:
  Applier(const Sources& src, NodeConfig& c) : src_(src), c_(c) {}

  template <class T>
  Applier& whole(const char* key, std::uint64_t lo, std::uint64_t hi, T& out) {
    if (auto r = next(key)) {
      auto v = parse_whole(*r, lo, hi);
      if (!v) return fail(v.status());
      out = static_cast<T>(*v);
    }
    return *this;
  }

  Applier& millis(const char* key, std::uint64_t lo, std::uint64_t hi,
                  std::chrono::milliseconds& out) {
    std::uint64_t count = static_cast<std::uint64_t>(out.count());
    whole(key, lo, hi, count);
    out = std::chrono::milliseconds(count);
    return *this;
  }

  Applier& real(const char* key, double lo, bool lo_inclusive, double& out) {
    if (auto r = next(key)) {
      auto v = parse_real(*r, lo, lo_inclusive);
      if (!v) return fail(v.status());
      out = *v;
    }
    return *this;
  }

  Applier& text(const char* key, bool may_be_empty, std::string& out) {
    if (auto r = next(key)) {
      if (r->value.empty() && !may_be_empty) return fail(invalid(*r, "must not be empty"));
      out = r->value;
    }
    return *this;
  }

  // A path from the config file is relative to the file's directory.
  Applier& path(const char* key, bool may_be_empty, std::string& out) {
    if (auto r = next(key)) {
      if (r->value.empty() && !may_be_empty) return fail(invalid(*r, "must not be empty"));
      out = from_file(*r) && !r->value.empty() ? resolve(r->value) : r->value;
    }
    return *this;
  }

  // Blank-separated words (a command line's prefix); empty: none.
  Applier& words(const char* key, std::vector<std::string>& out) {
    if (auto r = next(key)) {
      out.clear();
      std::istringstream in(r->value);
      for (std::string w; in >> w;) out.push_back(w);
    }
    return *this;
  }

  // Colon-separated directories, each relative to the config file's directory.
  Applier& path_list(const char* key, std::vector<std::string>& out) {
    if (auto r = next(key)) {
      out.clear();
      std::istringstream in(r->value);
      for (std::string dir; std::getline(in, dir, ':');) {
        dir = trim(dir);
        if (dir.empty()) continue;
        out.push_back(from_file(*r) ? resolve(dir) : dir);
      }
    }
    return *this;
  }

  // A number of bytes (0 = none) or a share of the machine's memory, "1..100%".
  Applier& memory_share(const char* key, std::string& out) {
    if (auto r = next(key)) {
      std::string v = r->value;
      if (v.ends_with('%')) {
        auto pct = parse_whole(Raw{r->key, v.substr(0, v.size() - 1), r->origin}, 1, 100);
        if (!pct) return fail(invalid(*r, "expected bytes, or a share of memory 1%..100%"));
      } else if (!parse_whole(*r, 0, std::uint64_t{1} << 62)) {
        return fail(invalid(*r, "expected bytes (0 = no limit), or a share of memory like 50%"));
      }
      out = v;
    }
    return *this;
  }

  Applier& address(const char* key, std::string& out) {
    if (auto r = next(key)) {
      if (!is_ip_or_localhost(r->value)) {
        return fail(invalid(*r, "not a valid IPv4/IPv6 address (or 'localhost')"));
      }
      out = r->value;
    }
    return *this;
  }

  // "off", or host:port with the host a loopback address — nothing but this machine may ask —
  // unless `remote` (the endpoint has TLS and asks for tokens).
  Applier& http_listen(const char* key, bool remote, std::optional<Endpoint>& out) {
    if (auto r = next(key)) {
      if (r->value == "off") return out.reset(), *this;
      auto ep = parse_endpoint(r->value);
      if (!ep) return fail(invalid(*r, ep.error() + " (or 'off')"));
      const std::string host = ep->literal_host();
      if (!remote && host.rfind("127.", 0) != 0 && host != "::1") {
        return fail(invalid(*r, "without http.tls_cert and http.tls_key the HTTP endpoint "
                                "serves this machine only: use a loopback address (127.0.0.1, "
                                "::1, localhost) or 'off'"));
      }
      if (!is_ip_or_localhost(ep->host)) return fail(invalid(*r, "not an IP address or localhost"));
      out = *ep;
    }
    return *this;
  }

  Applier& one_of(const char* key, const std::vector<std::string>& choices, std::string& out) {
    if (auto r = next(key)) {
      std::string list;
      for (const auto& choice : choices) {
        if (r->value == choice) return out = choice, *this;
        list += (list.empty() ? "" : ", ") + choice;
      }
      return fail(invalid(*r, "must be one of " + list));
    }
    return *this;
  }

  // A BOOL key: true or false, nothing else.
  Applier& flag(const char* key, bool& out) {
    std::string text = out ? "true" : "false";
    one_of(key, {"true", "false"}, text);
    out = text == "true";
    return *this;
  }

  Applier& seeds(const char* key, std::vector<Endpoint>& out) {
    if (!ok() || !src_.vm.count(key)) return *this;
    for (const auto& value : src_.vm[key].as<std::vector<std::string>>()) {
      const Raw r{key, value, seed_origin(key, value)};
      std::istringstream items(value);
      for (std::string item; std::getline(items, item, ',');) {
        if (trim(item).empty()) continue;
        auto ep = parse_endpoint(trim(item));
        if (!ep) return fail(invalid(r, ep.error()));
        out.push_back(*ep);
      }
    }
    return *this;
  }

  // Each value is checked with the origin of its own line.
  Applier& load_ramps(const char* key, std::vector<LoadRamp>& out) {
    if (!ok() || !src_.vm.count(key)) return *this;
    for (const auto& value : src_.vm[key].as<std::vector<std::string>>()) {
      const Raw r{key, value, seed_origin(key, value)};
      auto ramp = parse_load_ramp(trim(value));
      if (!ramp) return fail(invalid(r, ramp.error()));
      out.push_back(*ramp);
    }
    return *this;
  }

  // A choice among an enum's values, named by to_string.
  template <class E>
  Applier& named(const char* key, std::initializer_list<E> values, E& out) {
    std::vector<std::string> names;
    for (E v : values) names.emplace_back(to_string(v));
    std::string picked(to_string(out));
    one_of(key, names, picked);
    for (E v : values) {
      if (to_string(v) == picked) out = v;
    }
    return *this;
  }

  Applier& secret(const char* key, std::vector<std::uint8_t>& out) {
    if (!ok()) return *this;
    const Raw r{key, c_.secret_file, c_.where(key)};
    auto bytes = read_whole_file(c_.secret_file);
    if (!bytes) return fail(invalid(r, bytes.error()));
    const std::string secret = trim_trailing(*bytes);
    if (secret.size() < 16) {
      return fail(invalid(
          r, "the secret is " + std::to_string(secret.size()) + " bytes; at least 16 are needed"));
    }
    out.assign(secret.begin(), secret.end());
    return *this;
  }

  Applier& require(const char* key) {
    if (ok() && !src_.vm.count(key)) {
      const std::string in = src_.config_file.empty() ? "the config file" : src_.config_file;
      fail(Status::error("missing required key '" + std::string(key) + "': set it in " + in +
                         " or as --" + key + "=..."));
    }
    return *this;
  }

  Applier& check(bool holds, const char* key, const std::string& problem) {
    if (ok() && !holds) fail(invalid(current(key), problem));
    return *this;
  }

  // A rule between two numeric keys; the error names both with their values and origins.
  Applier& rule(bool holds, const char* key, double value, const char* relation,
                const char* other, double other_value) {
    if (ok() && !holds) {
      fail(Status::error(std::string(key) + " = " + number_text(value) + " (" + c_.where(key) +
                         ") must be " + relation + " " + other + " = " + number_text(other_value) +
                         " (" + c_.where(other) + ")"));
    }
    return *this;
  }

  const Status& status() const { return status_; }

 private:
  bool ok() const { return status_.is_ok(); }
  Applier& fail(Status st) {
    status_ = std::move(st);
    return *this;
  }

  Raw current(const char* key) const {
    const std::string value = src_.vm.count(key) ? src_.vm[key].as<std::string>() : "";
    return {key, value, c_.where(key)};
  }

  std::optional<Raw> next(const char* key) const {
    if (!ok() || !src_.vm.count(key)) return std::nullopt;
    return current(key);
  }

  bool from_file(const Raw& r) const { return r.origin != kCommandLine; }

  std::string resolve(const std::string& p) const {
    if (fs::path(p).is_absolute() || src_.config_dir.empty()) return p;
    return (src_.config_dir / p).string();
  }

  // Each line of a repeated key (seeds, load) has its own origin; the command line replaces
  // them all.
  std::string seed_origin(const char* key, const std::string& value) const {
    if (c_.where(key) == kCommandLine) return kCommandLine;
    for (const auto& e : src_.file_entries) {
      if (e.key == key && e.value == value) return e.origin;
    }
    return c_.where(key);
  }

  static std::string trim_trailing(const std::string& s) {
    const auto last = s.find_last_not_of(" \t\r\n\v\f");
    return last == std::string::npos ? "" : s.substr(0, last + 1);
  }

  const Sources& src_;
  NodeConfig& c_;
  Status status_ = Status::ok();
};

}  // namespace drift::config
