// Tokens and principals (node/net/access_token.h): the identity's canonical form, what makes a
// token unacceptable (expiry, revocation, any edit of its line), the token file's line.
#include <gtest/gtest.h>

#include "node/net/access_token.h"

namespace drift {
namespace {

const std::vector<std::uint8_t> kKey(32, 0xab);

TEST(AccessTokenTest, AnIdentityRoundTripsAndNamesItsPrincipal) {
  const Token t{"alice@lab", Role::kUser, 1'800'000'000};
  EXPECT_EQ(t.identity(), "drift-token 1 alice@lab user 1800000000");
  auto back = parse_token_identity(t.identity());
  ASSERT_TRUE(back.is_ok()) << back.error();
  EXPECT_EQ(back->name, "alice@lab");
  EXPECT_EQ(back->role, Role::kUser);
  auto who = principal_of(t.identity(), 1'700'000'000, {});
  ASSERT_TRUE(who.is_ok()) << who.error();
  EXPECT_EQ(who->role, Role::kUser);
  EXPECT_EQ(who->name, "alice@lab");
  auto member = principal_of(kMemberIdentity, 0, {});
  ASSERT_TRUE(member.is_ok());
  EXPECT_EQ(member->role, Role::kMember);
}

TEST(AccessTokenTest, ExpiredAndRevokedTokensAreRefusedNamingWhy) {
  const Token t{"bob", Role::kAdmin, 1000};
  auto late = principal_of(t.identity(), 1000, {});
  ASSERT_FALSE(late.is_ok());
  EXPECT_EQ(late.error(), "token 'bob' expired");
  const Token forever{"bob", Role::kAdmin, 0};
  EXPECT_TRUE(principal_of(forever.identity(), 4'000'000'000, {}).is_ok());
  auto revoked = principal_of(forever.identity(), 0, {"carol", "bob"});
  ASSERT_FALSE(revoked.is_ok());
  EXPECT_EQ(revoked.error(), "token 'bob' is revoked");
}

TEST(AccessTokenTest, OnlyTheCanonicalFormIsAToken) {
  for (const std::string bad :
       {"drift-token 1 alice root 0", "drift-token 2 alice user 0", "drift-token 1 alice user",
        "drift-token 1 alice user 0 extra", "drift-token 1 al/ice user 0",
        "drift-token 1 alice user 007", "drift-token  1 alice user 0", "drift-token 1 alice user -5",
        "drift-member2", ""}) {
    EXPECT_FALSE(parse_token_identity(bad).is_ok()) << bad;
    EXPECT_FALSE(principal_of(bad, 0, {}).is_ok()) << bad;
  }
  EXPECT_FALSE(check_token_name(std::string(65, 'a')).is_ok());
  EXPECT_TRUE(check_token_name(std::string(64, 'a')).is_ok());
  // The secret's holders' name: a token of that name would own the jobs they submitted.
  EXPECT_FALSE(check_token_name("cluster-secret").is_ok());
  EXPECT_FALSE(parse_token_identity("drift-token 1 cluster-secret user 0").is_ok());
}

TEST(AccessTokenTest, TheFileLineRoundTripsAndBadLinesSayWhy) {
  const Token t{"dave", Role::kUser, 0};
  const std::string text = token_file_text(t, kKey);
  EXPECT_EQ(text.back(), '\n');
  auto back = parse_token_file_text("  " + text + "\n");
  ASSERT_TRUE(back.is_ok()) << back.error();
  EXPECT_EQ(back->identity, t.identity());
  EXPECT_EQ(back->key, kKey);
  EXPECT_FALSE(parse_token_file_text(t.identity() + " abcd").is_ok());
  EXPECT_FALSE(parse_token_file_text(t.identity() + " " + std::string(64, 'g')).is_ok());
  EXPECT_FALSE(parse_token_file_text("nonsense").is_ok());
}

}  // namespace
}  // namespace drift
