// Refusals sorted into a fixed set of reasons (node/net/refusal_kind.h).
#include <gtest/gtest.h>

#include "node/net/refusal_kind.h"

namespace drift {
namespace {

TEST(RefusalKind, EachCloseReasonFallsIntoOneFixedKind) {
  EXPECT_STREQ(refusal_kind("refused a connection"), "admission");
  EXPECT_STREQ(refusal_kind("refused hello: node 3 is this node"), "hello");
  EXPECT_STREQ(refusal_kind("refused authentication: bad proof"), "authentication");
  EXPECT_STREQ(refusal_kind("refused TLS handshake (no shared cipher)"), "tls_handshake");
  EXPECT_STREQ(refusal_kind("handshake not completed in time"), "tls_handshake");
  EXPECT_STREQ(refusal_kind("refused frame: body of 9999999999 bytes"), "frame");
  EXPECT_STREQ(refusal_kind("refused TaskMessage frame: bad header"), "frame");
  EXPECT_STREQ(refusal_kind("anything a peer could make up"), "other");
}

}  // namespace
}  // namespace drift
