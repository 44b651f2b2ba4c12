#include "ctl/secret_file.h"

#include <fcntl.h>
#include <openssl/rand.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace drift::ctl {

namespace {

bool is_trailing_space(std::uint8_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string hex(const std::uint8_t* bytes, std::size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 0xf];
  }
  return out + "\n";
}

Status write_new_file(const std::filesystem::path& file, const std::string& text) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Status::error("cannot create secret file '" + file.string() +
                         "': " + std::strerror(errno));
  }
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    return Status::error("cannot write secret file '" + file.string() +
                         "': " + std::strerror(errno));
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<std::uint8_t>> read_secret_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return Status::error("cannot read secret file '" + file.string() +
                         "': " + std::strerror(errno));
  }
  std::vector<std::uint8_t> secret{std::istreambuf_iterator<char>(in),
                                   std::istreambuf_iterator<char>()};
  while (!secret.empty() && is_trailing_space(secret.back())) secret.pop_back();
  if (secret.empty()) return Status::error("secret file '" + file.string() + "' is empty");
  return secret;
}

Status ensure_secret_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) return Status::ok();
  std::array<std::uint8_t, 32> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    return Status::error("OpenSSL RAND_bytes failed while making the secret for '" + file.string() +
                         "'");
  }
  return write_new_file(file, hex(bytes.data(), bytes.size()));
}

}  // namespace drift::ctl
