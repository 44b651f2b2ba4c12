#include "node/net/endpoint.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

TEST(EndpointTest, ParsesHostNameAndPort) {
  auto e = parse_endpoint("node7.example:7400");
  ASSERT_TRUE(e) << e.error();
  EXPECT_EQ(e->host, "node7.example");
  EXPECT_EQ(e->port, 7400);
}

TEST(EndpointTest, ParsesIpv4) {
  auto e = parse_endpoint("1.2.3.4:7400");
  ASSERT_TRUE(e) << e.error();
  EXPECT_EQ(e->host, "1.2.3.4");
  EXPECT_EQ(e->port, 7400);
}

TEST(EndpointTest, ParsesBracketedIpv6) {
  auto e = parse_endpoint("[::1]:65535");
  ASSERT_TRUE(e) << e.error();
  EXPECT_EQ(e->host, "::1");
  EXPECT_EQ(e->port, 65535);
}

TEST(EndpointTest, ToStringRoundTrips) {
  for (const char* text : {"localhost:1", "10.0.0.1:7400", "[fe80::1]:9"}) {
    auto e = parse_endpoint(text);
    ASSERT_TRUE(e) << e.error();
    EXPECT_EQ(e->to_string(), text);
    EXPECT_EQ(parse_endpoint(e->to_string()).value(), e.value());
  }
}

TEST(EndpointTest, RefusesMalformedTextNamingIt) {
  for (const char* text :
       {"", "host", ":7400", "[]:7400", "[::1]", "[::1]7400", "::1:7400", "host:", "host:abc",
        "host:74x", "host:-1", "host:0", "host:65536", "host:99999999999999999999", "a b:1"}) {
    auto e = parse_endpoint(text);
    EXPECT_FALSE(e) << text;
    if (!e) {
      EXPECT_NE(e.error().find("'" + std::string(text) + "'"), std::string::npos) << e.error();
    }
  }
}

}  // namespace
}  // namespace drift
