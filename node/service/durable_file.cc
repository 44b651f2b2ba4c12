#include "node/service/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace drift {

namespace fs = std::filesystem;

namespace {

std::string errno_text() { return std::strerror(errno); }

}  // namespace

Status write_synced(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Status::error("cannot create " + path.string() + ": " + errno_text());
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Status st = Status::error("cannot write " + path.string() + ": " + errno_text());
      ::close(fd);
      return st;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    Status st = Status::error("cannot sync " + path.string() + ": " + errno_text());
    ::close(fd);
    return st;
  }
  if (::close(fd) != 0) return Status::error("cannot close " + path.string() + ": " + errno_text());
  return Status::ok();
}

Status write_durably(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  fs::path partial = path;
  partial += kPartialSuffix;
  std::error_code ec;
  if (Status st = write_synced(partial, bytes); !st) {
    fs::remove(partial, ec);
    return st;
  }
  fs::rename(partial, path, ec);
  if (ec) return Status::error("cannot rename " + partial.string() + ": " + ec.message());
  return Status::ok();
}

Result<std::vector<std::uint8_t>> read_all(const fs::path& path, std::uint64_t max_bytes) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (!ec && size > max_bytes) {
    return Status::error(path.string() + " has " + std::to_string(size) + " bytes, more than " +
                         std::to_string(max_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error("cannot open " + path.string());
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  if (in.bad()) return Status::error("cannot read " + path.string());
  return bytes;
}

std::string hex_name(std::uint64_t value) {
  char name[17];
  std::snprintf(name, sizeof name, "%016" PRIx64, value);
  return name;
}

std::optional<std::uint64_t> number_of(const std::string& name, int base) {
  if (name.empty() || name.size() > (base == 16 ? 16u : 19u)) return std::nullopt;
  if (base == 16 && name.size() != 16) return std::nullopt;
  for (char ch : name) {
    const bool digit = ch >= '0' && ch <= '9';
    const bool hex = (ch >= 'a' && ch <= 'f');
    if (!digit && !(base == 16 && hex)) return std::nullopt;
  }
  return std::stoull(name, nullptr, base);
}

}  // namespace drift
