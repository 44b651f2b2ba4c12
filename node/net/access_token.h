// Who is on the other end of a connection (docs/architecture.md §4): a *member* (a daemon, or
// driftctl with the cluster secret: every power) or a person with a *token* naming them and
// their role, user or admin. A token is its TLS identity, "drift-token 1 NAME ROLE EXPIRES", and
// that identity's key (tls_psk of the cluster secret), so any daemon verifies it with nothing but
// the secret: no shared database. The token file holds the identity and the key in hex, one
// line. Revocation is by name (cluster.revoked_tokens). Pure logic, no I/O.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <drift/status.h>

namespace drift {

// What a daemon and a driftctl holding the cluster secret present themselves as at TLS.
inline constexpr const char* kMemberIdentity = "drift-member";

enum class Role : std::uint8_t { kUser = 0, kAdmin = 1, kMember = 2 };
const char* to_string(Role role);
// A person's role by name: "user" or "admin" (the member's is no token's).
Result<Role> parse_role(const std::string& text);
// Whether `have` may do what needs `need` (member > admin > user).
inline bool allows(Role have, Role need) { return static_cast<int>(have) >= static_cast<int>(need); }

struct Principal {
  Role role = Role::kMember;
  std::string name;  // the token's; "cluster-secret" for a member
};

struct Token {
  std::string name;
  Role role = Role::kUser;
  std::int64_t expires = 0;  // Unix seconds; 0: never

  std::string identity() const;  // "drift-token 1 alice user 1767225600"
};

// A name: 1-64 of letters, digits, '.', '_', '-', '@'.
Status check_token_name(const std::string& name);
// The token an identity names, if it is one (any other text, including the member's, is not).
Result<Token> parse_token_identity(const std::string& identity);
// Who an identity offered at the TLS handshake is, at `now`: the member, or a token that has
// not expired and whose name is not revoked; else why not.
Result<Principal> principal_of(const std::string& identity, std::int64_t now,
                               const std::set<std::string>& revoked);

// The token file's one line: identity and key (hex).
std::string token_file_text(const Token& token, const std::vector<std::uint8_t>& key);
struct TokenCredentials {
  std::string identity;
  std::vector<std::uint8_t> key;
};
// Reads that line back (surrounding whitespace ignored); the error says what is wrong.
Result<TokenCredentials> parse_token_file_text(const std::string& text);

}  // namespace drift
