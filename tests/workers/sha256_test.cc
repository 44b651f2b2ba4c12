// sha256: the SHA-256 of bytes given at once or piece by piece and of a file, as 64 lowercase hex
// digits; valid_sha256 tells such a name from anything else.
#include "node/workers/sha256.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/workers/temp_dir.h"

namespace drift {
namespace {

constexpr const char* kEmptySha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
constexpr const char* kAbcSha = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

std::span<const std::uint8_t> sha_input(const std::string& text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

std::string sha_of(const std::string& text) {
  Sha256 h;
  h.add(sha_input(text));
  return h.hex();
}

TEST(Sha256, MatchesTheStandardVectors) {
  EXPECT_EQ(sha_of(""), kEmptySha);
  EXPECT_EQ(sha_of("abc"), kAbcSha);
  EXPECT_EQ(sha_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha_of(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, NothingAddedIsTheHashOfNoBytes) {
  Sha256 h;
  EXPECT_EQ(h.hex(), kEmptySha);
}

TEST(Sha256, PiecesHashAsTheWholeDoes) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += static_cast<char>(i * 7 + i / 13);
  const std::string whole = sha_of(text);
  for (std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{64}, std::size_t{1000}}) {
    Sha256 h;
    for (std::size_t at = 0; at < text.size(); at += piece) {
      h.add(sha_input(text.substr(at, piece)));
    }
    EXPECT_EQ(h.hex(), whole) << "pieces of " << piece;
  }
  Sha256 with_empty_pieces;
  with_empty_pieces.add({});
  with_empty_pieces.add(sha_input(text));
  with_empty_pieces.add({});
  EXPECT_EQ(with_empty_pieces.hex(), whole);
}

TEST(Sha256, HexIsSixtyFourLowercaseDigits) {
  const std::string hex = sha_of("drift");
  EXPECT_EQ(hex.size(), 64u);
  EXPECT_TRUE(valid_sha256(hex)) << hex;
}

TEST(Sha256File, HashesTheFilesBytes) {
  test::TempDir dir;
  EXPECT_EQ(sha256_file(test::write_file(dir / "abc", std::string("abc"))).value(), kAbcSha);
  EXPECT_EQ(sha256_file(test::write_file(dir / "empty", std::string())).value(), kEmptySha);
}

TEST(Sha256File, AFileLongerThanOneReadHashesAsItsBytes) {
  test::TempDir dir;
  std::string text((1 << 20) + 3, '\0');
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>(i % 251);
  auto hash = sha256_file(test::write_file(dir / "big", text));
  ASSERT_TRUE(hash) << hash.error();
  EXPECT_EQ(*hash, sha_of(text));
}

TEST(Sha256File, AMissingFileIsAnErrorNamingIt) {
  test::TempDir dir;
  auto hash = sha256_file(dir / "absent");
  ASSERT_FALSE(hash);
  EXPECT_NE(hash.error().find("cannot read " + (dir / "absent")), std::string::npos)
      << hash.error();
}

TEST(Sha256File, ADirectoryIsAnErrorNotTheHashOfNothing) {
  test::TempDir dir;
  auto hash = sha256_file(dir.path());
  EXPECT_FALSE(hash) << "hashed a directory to " << hash.value();
}

TEST(ValidSha256, TakesSixtyFourLowercaseHexDigitsOnly) {
  EXPECT_TRUE(valid_sha256(kEmptySha));
  EXPECT_TRUE(valid_sha256(std::string(64, '0')));
  EXPECT_TRUE(valid_sha256(std::string(64, 'f')));
  EXPECT_FALSE(valid_sha256(""));
  EXPECT_FALSE(valid_sha256(std::string(63, 'a')));
  EXPECT_FALSE(valid_sha256(std::string(65, 'a')));
  EXPECT_FALSE(valid_sha256(std::string(64, 'A')));  // uppercase
  EXPECT_FALSE(valid_sha256(std::string(64, 'g')));
  std::string with_slash(kAbcSha);
  with_slash[10] = '/';
  EXPECT_FALSE(valid_sha256(with_slash));
  EXPECT_FALSE(valid_sha256(std::string("../") + std::string(61, 'a')));
}

}  // namespace
}  // namespace drift
