// loopback_host: which Host headers the plain-HTTP endpoint answers.
#include "node/http/loopback_host.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

TEST(LoopbackHostTest, ThisMachinesLoopbackNamesAreAnswered) {
  for (const char* host : {"127.0.0.1", "127.0.0.1:9400", "127.5.6.7:80", "localhost",
                           "LocalHost:9400", "[::1]", "[::1]:9400"}) {
    EXPECT_TRUE(loopback_host(host)) << host;
  }
}

TEST(LoopbackHostTest, AnyOtherNameIsNot) {
  for (const char* host : {"", "attacker.example", "attacker.example:9400", "128.0.0.1",
                           "10.0.0.7:9400", "localhost.attacker.example", "127.0.0.1.nip.io",
                           "[::2]", "[::1", "[::1]x", "127.0.0.1:", "127.0.0.1:80x",
                           "localhost:9400:1"}) {
    EXPECT_FALSE(loopback_host(host)) << host;
  }
}

}  // namespace
}  // namespace drift
