#include "node/net/access_token.h"

#include <cctype>
#include <sstream>


namespace drift {

namespace {

constexpr const char* kPrefix = "drift-token";
constexpr std::size_t kKeyBytes = 32;

std::string hex(const std::vector<std::uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

const char* to_string(Role role) {
  switch (role) {
    case Role::kUser: return "user";
    case Role::kAdmin: return "admin";
    case Role::kMember: return "member";
  }
  return "?";
}

std::string Token::identity() const {
  return std::string(kPrefix) + " 1 " + name + " " + to_string(role) + " " + std::to_string(expires);
}

Status check_token_name(const std::string& name) {
  if (name.empty() || name.size() > 64) {
    return Status::error("token name '" + name + "': 1 to 64 characters");
  }
  if (name == "cluster-secret") {  // the members' name: its holder would own their jobs
    return Status::error("token name 'cluster-secret' is the name of the cluster secret's holders");
  }
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-' &&
        c != '@') {
      return Status::error("token name '" + name + "': only letters, digits and . _ - @");
    }
  }
  return Status::ok();
}

Result<Role> parse_role(const std::string& text) {
  if (text == "user") return Role::kUser;
  if (text == "admin") return Role::kAdmin;
  return Status::error("role '" + text + "': user or admin");
}

Result<Token> parse_token_identity(const std::string& identity) {
  std::istringstream in(identity);
  std::string prefix, version, name, role, expires, extra;
  if (!(in >> prefix >> version >> name >> role >> expires) || (in >> extra) || prefix != kPrefix) {
    return Status::error("not a drift token");
  }
  if (version != "1") return Status::error("token version " + version + " is not known here");
  if (Status st = check_token_name(name); !st) return st;
  Token t;
  t.name = name;
  auto parsed = parse_role(role);
  if (!parsed) return Status::error("token " + parsed.error());
  t.role = *parsed;
  if (expires.empty() || expires.size() > 18 ||
      expires.find_first_not_of("0123456789") != std::string::npos) {
    return Status::error("token expiry '" + expires + "' is not a time");
  }
  t.expires = std::stoll(expires);
  if (t.identity() != identity) return Status::error("token identity not in its canonical form");
  return t;
}

Result<Principal> principal_of(const std::string& identity, std::int64_t now,
                               const std::set<std::string>& revoked) {
  if (identity == kMemberIdentity) return Principal{Role::kMember, "cluster-secret"};
  auto token = parse_token_identity(identity);
  if (!token) return token.status();
  if (token->expires != 0 && token->expires <= now) {
    return Status::error("token '" + token->name + "' expired");
  }
  if (revoked.contains(token->name)) return Status::error("token '" + token->name + "' is revoked");
  return Principal{token->role, token->name};
}

std::string token_file_text(const Token& token, const std::vector<std::uint8_t>& key) {
  return token.identity() + " " + hex(key) + "\n";
}

Result<TokenCredentials> parse_token_file_text(const std::string& text) {
  std::string line = text;
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.erase(0, 1);
  const auto space = line.rfind(' ');
  if (space == std::string::npos) return Status::error("not a drift token file");
  TokenCredentials c;
  c.identity = line.substr(0, space);
  const std::string key = line.substr(space + 1);
  if (auto token = parse_token_identity(c.identity); !token) return token.status();
  if (key.size() != 2 * kKeyBytes) return Status::error("the token's key is not 64 hex digits");
  for (std::size_t i = 0; i < key.size(); i += 2) {
    const int hi = nibble(key[i]), lo = nibble(key[i + 1]);
    if (hi < 0 || lo < 0) return Status::error("the token's key is not 64 hex digits");
    c.key.push_back(static_cast<std::uint8_t>(hi << 4 | lo));
  }
  return c;
}

}  // namespace drift
