// encode_portable / decode_portable: every wire field kind round-trips, the byte layout is
// little-endian after one flag byte, and the bounded archive refuses what it must.
#include <drift/archives.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace drift {
namespace {

using ::testing::HasSubstr;
using Bytes = std::vector<std::uint8_t>;

enum class Mood : std::uint8_t { kCalm = 0, kHappy = 1, kGrumpy = 2 };

struct Inner {
  std::int32_t a = 0;
  std::string s;

  friend bool operator==(const Inner&, const Inner&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(a, s);
  }
};

struct AllKinds {
  std::uint8_t u8 = 0;
  std::uint16_t u16 = 0;
  std::uint32_t u32 = 0;
  std::uint64_t u64 = 0;
  std::int8_t i8 = 0;
  std::int16_t i16 = 0;
  std::int32_t i32 = 0;
  std::int64_t i64 = 0;
  double d = 0;
  float f = 0;
  bool raw_bool = false;
  bool checked_bool = false;
  Mood mood = Mood::kCalm;
  std::string text;
  std::vector<std::uint8_t> bytes;
  std::vector<double> doubles;
  std::vector<std::string> strings;
  std::vector<Inner> inners;
  std::vector<bool> bits;
  std::array<std::uint8_t, 4> byte_array{};
  std::array<double, 2> double_array{};
  std::array<Inner, 2> inner_array{};
  std::map<std::string, std::string> string_map;
  std::map<std::uint32_t, Inner> inner_map;
  Inner nested;

  friend bool operator==(const AllKinds&, const AllKinds&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(u8, u16, u32, u64, i8, i16, i32, i64, d, f, raw_bool);
    wire_bool(ar, checked_bool);
    wire_enum<2>(ar, mood);
    ar(text, bytes, doubles, strings, inners, bits, byte_array, double_array, inner_array);
    ar(string_map, inner_map, nested);
  }
};

AllKinds sample() {
  AllKinds v;
  v.u8 = 0xfe;
  v.u16 = 0xbeef;
  v.u32 = 0xdeadbeef;
  v.u64 = 0x0123456789abcdefULL;
  v.i8 = -128;
  v.i16 = -2;
  v.i32 = -123456;
  v.i64 = -9000000000000000000LL;
  v.d = -2.5e-300;
  v.f = 0.1f;
  v.raw_bool = true;
  v.checked_bool = true;
  v.mood = Mood::kGrumpy;
  v.text = std::string("grüße \xff") + '\0' + " end";
  v.bytes = {0, 0x80, 0xff};
  v.doubles = {-0.0, 1.0 / 3.0, 1e308};
  v.strings = {"", "a", "ßß"};
  v.inners = {{1, "x"}, {-1, ""}};
  v.bits = {true, false, true};
  v.byte_array = {1, 2, 3, 255};
  v.double_array = {-1.5, 2.25};
  v.inner_array = {Inner{7, "seven"}, Inner{8, "eight"}};
  v.string_map = {{"k1", "v1"}, {"", "empty key"}, {"κ", "λ"}};
  v.inner_map = {{3, {3, "three"}}, {0xffffffff, {-3, "max"}}};
  v.nested = {42, "nested"};
  return v;
}

// What node/tasks/task.h does: save and load through the concrete archive classes.
void save_through_reference(PortableOutputArchive& ar, const AllKinds& v) { ar(v); }
void load_through_reference(BoundedInputArchive& ar, AllKinds& v) { ar(v); }

TEST(Archives, RoundTripEveryWireFieldKind) {
  const AllKinds original = sample();
  const Bytes bytes = encode_portable(original);
  AllKinds decoded;
  Status s = decode_portable(bytes, decoded);
  ASSERT_TRUE(s) << s.message();
  EXPECT_EQ(decoded, original);
  EXPECT_EQ(encode_portable(decoded), bytes);
}

TEST(Archives, ConcreteArchiveClassesMatchTheHelpers) {
  const AllKinds original = sample();
  PortableOutputArchive out;
  save_through_reference(out, original);
  const Bytes bytes = std::move(out).take_bytes();
  EXPECT_EQ(bytes, encode_portable(original));

  AllKinds decoded;
  BoundedInputArchive in(bytes);
  load_through_reference(in, decoded);
  EXPECT_EQ(in.remaining(), 0u);
  EXPECT_EQ(decoded, original);
}

TEST(Archives, WritesAFlagByteThenLittleEndianFields) {
  EXPECT_EQ(encode_portable(std::uint32_t{0x01020304}), (Bytes{1, 0x04, 0x03, 0x02, 0x01}));
  EXPECT_EQ(encode_portable(std::int16_t{-2}), (Bytes{1, 0xfe, 0xff}));
  EXPECT_EQ(encode_portable(1.0), (Bytes{1, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
  EXPECT_EQ(encode_portable(std::string("ab")), (Bytes{1, 2, 0, 0, 0, 0, 0, 0, 0, 'a', 'b'}));
}

TEST(Archives, RefusesTrailingBytes) {
  Bytes bytes = encode_portable(std::uint16_t{7});
  bytes.push_back(0);
  std::uint16_t v = 0;
  EXPECT_EQ(decode_portable(bytes, v).message(),
            "trailing bytes: 1 byte after the value ended at offset 3");
}

TEST(Archives, RefusesABigEndianFlag) {
  const Bytes bytes{0, 0, 7};  // what a big-endian default PortableBinaryOutputArchive writes
  std::uint16_t v = 0;
  EXPECT_EQ(decode_portable(bytes, v).message(), "endianness flag 0 is not 1 (little-endian)");
}

TEST(Archives, RefusesEmptyAndTruncatedInput) {
  std::uint32_t v = 0;
  EXPECT_EQ(decode_portable({}, v).message(), "truncated at offset 0: 1 byte needed, 0 left");
  EXPECT_EQ(decode_portable(Bytes{1, 2, 3}, v).message(),
            "truncated at offset 1: 4 bytes needed, 2 left");
}

TEST(Archives, RefusesARawBoolOtherThanZeroOrOne) {
  bool b = false;
  EXPECT_TRUE(decode_portable(Bytes{1, 1}, b));
  EXPECT_TRUE(b);
  EXPECT_EQ(decode_portable(Bytes{1, 2}, b).message(), "bool value 2 is neither 0 nor 1");
  std::vector<bool> bits;
  EXPECT_EQ(decode_portable(Bytes{1, 1, 0, 0, 0, 0, 0, 0, 0, 0xff}, bits).message(),
            "bool value 255 is neither 0 nor 1");
}

TEST(Archives, RefusesAnEnumOutOfRange) {
  AllKinds v = sample();
  Bytes bytes = encode_portable(v);
  v.mood = Mood::kCalm;
  const Bytes calm = encode_portable(v);
  // The only byte that differs is the enum's.
  std::size_t at = 0;
  while (bytes[at] == calm[at]) ++at;
  bytes[at] = 3;
  EXPECT_EQ(decode_portable(bytes, v).message(), "enum value 3 out of range 0..2");
}

TEST(Archives, RefusesAStringLongerThanTheBytesLeft) {
  Bytes bytes = encode_portable(std::string("abc"));
  bytes[1] = 4;
  std::string s;
  EXPECT_EQ(decode_portable(bytes, s).message(), "length 4 at offset 1 exceeds the 3 bytes left");
}

TEST(Archives, RefusesALengthA32BitSizeTCannotHold) {
  // 2^32 + 2: a 32-bit build that truncated it would read a 2-byte string.
  const Bytes bytes{1, 2, 0, 0, 0, 1, 0, 0, 0, 'h', 'i'};
  std::string s;
  EXPECT_EQ(decode_portable(bytes, s).message(),
            "length 4294967298 at offset 1 exceeds the 2 bytes left");
}

TEST(Archives, RefusesArithmeticVectorsWhoseElementsCannotFit) {
  Bytes bytes = encode_portable(std::vector<std::uint32_t>{1, 2});
  bytes[1] = 3;  // 3 elements of 4 bytes, 8 bytes present
  std::vector<std::uint32_t> v;
  EXPECT_EQ(decode_portable(bytes, v).message(),
            "length 3 of 4-byte elements at offset 1 exceeds the 8 bytes left");
}

TEST(Archives, RefusesAStructVectorLongerThanTheBytesLeft) {
  Bytes bytes = encode_portable(std::vector<Inner>{{1, "a"}});
  bytes[1] = 0xff;
  bytes[8] = 0xff;  // 0xff000000000000ff elements
  std::vector<Inner> v;
  EXPECT_THAT(decode_portable(bytes, v).message(),
              HasSubstr("length 18374686479671623935 at offset 1 exceeds the 13 bytes left"));
}

TEST(Archives, MapsAreBoundedByTheBytesLeft) {
  Bytes bytes = encode_portable(std::map<std::string, std::string>{{"a", "b"}});
  bytes[1] = 2;  // two entries, one present
  std::map<std::string, std::string> m;
  EXPECT_EQ(decode_portable(bytes, m).message(), "truncated at offset 27: 8 bytes needed, 0 left");
}

// Pieces of `bytes`, cut every `step` bytes, with an empty piece after every other one.
std::vector<std::span<const std::uint8_t>> cut(const Bytes& bytes, std::size_t step) {
  std::vector<std::span<const std::uint8_t>> pieces;
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    pieces.push_back(std::span(bytes).subspan(at, std::min(step, bytes.size() - at)));
    if (pieces.size() % 3 == 1) pieces.push_back({});
  }
  return pieces;
}

TEST(Archives, ReadsPiecesAsOneInput) {
  const AllKinds original = sample();
  const Bytes bytes = encode_portable(original);
  for (std::size_t step :
       {std::size_t{1}, std::size_t{3}, std::size_t{7}, bytes.size() / 2, bytes.size()}) {
    const auto pieces = cut(bytes, step);
    AllKinds decoded;
    BoundedInputArchive in(pieces);
    EXPECT_EQ(in.remaining(), bytes.size() - 1);  // after the flag byte
    load_through_reference(in, decoded);
    EXPECT_EQ(in.remaining(), 0u) << step;
    EXPECT_EQ(in.offset(), bytes.size()) << step;
    EXPECT_EQ(decoded, original) << step;
  }
}

TEST(Archives, PiecesKeepTheBounds) {
  Bytes bytes = encode_portable(std::vector<std::uint32_t>{1, 2, 3});
  const Bytes whole = bytes;
  bytes.pop_back();
  std::vector<std::uint32_t> v;
  const auto pieces = cut(bytes, 5);
  BoundedInputArchive in(pieces);
  try {
    in(v);
    FAIL() << "a truncated vector in pieces loaded";
  } catch (const WireError& e) {
    EXPECT_THAT(e.what(), HasSubstr("length 3 of 4-byte elements at offset 1 exceeds"));
  }
  const auto all = cut(whole, 5);
  BoundedInputArchive again(all);
  again(v);
  EXPECT_EQ(v, (std::vector<std::uint32_t>{1, 2, 3}));
}

// Hands out fixed pieces, one per next(), and says how often it was asked.
class TestSource final : public PieceSource {
 public:
  TestSource(std::vector<std::span<const std::uint8_t>> pieces, std::size_t total)
      : pieces_(std::move(pieces)), total_(total) {}
  std::size_t total() const override { return total_; }
  std::span<const std::uint8_t> next() override {
    if (asked_ == pieces_.size()) throw std::runtime_error("no more pieces");
    return pieces_[asked_++];
  }
  std::size_t asked() const { return asked_; }

 private:
  std::vector<std::span<const std::uint8_t>> pieces_;
  std::size_t total_;
  std::size_t asked_ = 0;
};

TEST(Archives, ReadsFromAPieceSourceAsItGoes) {
  const AllKinds original = sample();
  const Bytes bytes = encode_portable(original);
  TestSource source(cut(bytes, 10), bytes.size());
  BoundedInputArchive in(source);
  EXPECT_EQ(source.asked(), 1u);  // the flag byte
  AllKinds decoded;
  load_through_reference(in, decoded);
  EXPECT_EQ(in.remaining(), 0u);
  EXPECT_EQ(decoded, original);
}

TEST(Archives, APieceSourceThatFailsStopsTheDecoding) {
  const Bytes bytes = encode_portable(sample());
  auto pieces = cut(bytes, 10);
  pieces.resize(pieces.size() / 2);
  TestSource source(pieces, bytes.size());  // announces more than it has
  AllKinds decoded;
  BoundedInputArchive in(source);
  EXPECT_THROW(load_through_reference(in, decoded), std::runtime_error);
}

TEST(Archives, APieceBeyondTheAnnouncedTotalIsRefused) {
  const Bytes bytes = encode_portable(std::uint32_t{5});
  TestSource source({std::span(bytes).first(1), std::span(bytes).subspan(1)}, 3);
  BoundedInputArchive in(source);
  std::uint16_t v = 0;
  EXPECT_THROW(in(v), WireError);
}

TEST(Archives, WritesIntoAGivenStreambuf) {
  const AllKinds original = sample();
  std::stringbuf out;
  {
    PortableOutputArchive ar(out);
    save_through_reference(ar, original);
    EXPECT_TRUE(ar.bytes().empty());
  }
  const std::string text = out.str();
  EXPECT_EQ(Bytes(text.begin(), text.end()), encode_portable(original));
}

}  // namespace
}  // namespace drift
