// The fixed frame header: byte layout, round trip, and each refusal.
#include "protocol/frame.h"

#include <gtest/gtest.h>

#include <array>

namespace drift {
namespace {

using HeaderBytes = std::array<std::uint8_t, kFrameHeaderSize>;

TEST(Frame, HeaderIsLittleEndianByteByByte) {
  FrameHeader h;
  h.type = 0x0102;
  h.length = 0x0a0b0c0d;
  EXPECT_EQ(encode_header(h),
            (HeaderBytes{'D', 'R', 'F', 'T', 0x01, 0x00, 0x02, 0x01, 0x0d, 0x0c, 0x0b, 0x0a}));
}

TEST(Frame, HeaderRoundTrips) {
  FrameHeader h;
  h.type = 20;
  h.length = 4096;
  Result<FrameHeader> back = decode_header(encode_header(h), 4096);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->magic, kFrameMagic);
  EXPECT_EQ(back->version, kProtocolVersion);
  EXPECT_EQ(back->type, 20);
  EXPECT_EQ(back->length, 4096u);
}

TEST(Frame, RefusesABodyOverTheMaximum) {
  FrameHeader h;
  h.length = 99999999;
  EXPECT_EQ(decode_header(encode_header(h), 8388608).error(),
            "frame body of 99999999 bytes exceeds the maximum of 8388608");
  h.length = 0xffffffff;
  EXPECT_EQ(decode_header(encode_header(h), kHandshakeMaxBody).error(),
            "frame body of 4294967295 bytes exceeds the maximum of 4096");
}

TEST(Frame, RefusesABadMagic) {
  const HeaderBytes http{'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P', '/', '1'};
  EXPECT_EQ(decode_header(http, 4096).error(), "bad frame magic 0x20544547 (expected 0x54465244)");
}

TEST(Frame, RefusesAnotherProtocolVersion) {
  FrameHeader h;
  h.version = 2;
  EXPECT_EQ(decode_header(encode_header(h), 4096).error(),
            "frame of protocol version 2 (ours is 1)");
}

}  // namespace
}  // namespace drift
