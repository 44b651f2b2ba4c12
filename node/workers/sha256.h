// SHA-256 (OpenSSL's EVP), as the 64 lowercase hex digits that name an executable shipped with a
// job: of bytes given piece by piece, or of a whole file.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include <drift/status.h>

namespace drift {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void add(std::span<const std::uint8_t> bytes);
  std::string hex();  // ends it

 private:
  struct Context;
  std::unique_ptr<Context> ctx_;
};

Result<std::string> sha256_file(const std::string& path);

// 64 lowercase hex digits.
bool valid_sha256(const std::string& text);

}  // namespace drift
