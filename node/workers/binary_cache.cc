#include "node/workers/binary_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace drift {

namespace fs = std::filesystem;

BinaryCache::BinaryCache(std::string dir, std::uint64_t max_bytes, std::uint64_t max_binary)
    : dir_(std::move(dir)), max_bytes_(max_bytes), max_binary_bytes_(max_binary) {}

Status BinaryCache::open() {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Status::error("cannot make " + dir_ + ": " + ec.message());
  ::chmod(dir_.c_str(), 0755);
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    if (entry.path().filename().string().starts_with(".incoming-")) fs::remove(entry.path(), ec);
  }
  return Status::ok();
}

std::optional<std::string> BinaryCache::find(const std::string& sha256) {
  if (!valid_sha256(sha256)) return std::nullopt;
  const std::string path = dir_ + "/" + sha256;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || ::access(path.c_str(), R_OK) != 0) return std::nullopt;
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // used now
  return path;
}

Result<std::unique_ptr<BinaryCache::Incoming>> BinaryCache::begin(const std::string& sha256,
                                                                 std::uint64_t total) {
  if (!valid_sha256(sha256)) return Status::error("'" + sha256 + "' is not a SHA-256");
  if (total == 0) return Status::error("an empty executable");
  if (total > max_binary_bytes_) {
    return Status::error("an executable of " + std::to_string(total) + " bytes; this node takes " +
                         "at most " + std::to_string(max_binary_bytes_) +
                         " (worker.max_binary_bytes)");
  }
  auto in = std::make_unique<Incoming>();
  in->sha256_ = sha256;
  in->total_ = total;
  in->tmp_ = dir_ + "/.incoming-" + sha256 + "-" + std::to_string(::getpid()) + "-" +
             std::to_string(++made_);
  in->fd_ = ::open(in->tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
  if (in->fd_ < 0) return Status::error("cannot write " + in->tmp_ + ": " + std::strerror(errno));
  if (::ftruncate(in->fd_, static_cast<off_t>(total)) != 0) {
    const std::string why = std::strerror(errno);
    abandon(std::move(in));
    return Status::error("no room for an executable of " + std::to_string(total) + " bytes: " + why);
  }
  return in;
}

Status BinaryCache::Incoming::add(std::uint64_t offset, std::span<const std::uint8_t> bytes) {
  if (offset > total_ || bytes.size() > total_ - offset || bytes.empty()) {
    return Status::error("a piece of " + std::to_string(bytes.size()) + " bytes at offset " +
                         std::to_string(offset) + " of an executable of " +
                         std::to_string(total_) + " bytes");
  }
  auto next = pieces_.lower_bound(offset);
  if ((next != pieces_.end() && next->first < offset + bytes.size()) ||
      (next != pieces_.begin() && std::prev(next)->first + std::prev(next)->second > offset)) {
    return Status::error("a piece at offset " + std::to_string(offset) + " that overlaps another");
  }
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::pwrite(fd_, bytes.data() + written, bytes.size() - written,
                               static_cast<off_t>(offset + written));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::error(std::string("cannot write the executable: ") + std::strerror(errno));
    written += static_cast<std::size_t>(n);
  }
  pieces_.emplace(offset, bytes.size());
  received_ += bytes.size();
  if (offset == hashed_) {
    hash_.add(bytes);
    hashed_ += bytes.size();
  }
  return Status::ok();
}

Result<std::string> BinaryCache::finish(std::unique_ptr<Incoming> in) {
  if (!in->complete()) {
    abandon(std::move(in));
    return Status::error("the executable did not arrive whole");
  }
  ::close(in->fd_);
  in->fd_ = -1;
  // Hashed as it came, unless its pieces came out of order. A mismatch: the destructor removes
  // the file.
  Result<std::string> hash = in->hashed_ == in->total_ ? Result<std::string>(in->hash_.hex())
                                                       : sha256_file(in->tmp_);
  if (!hash || *hash != in->sha256_) {
    const std::string got = hash ? *hash : hash.error();
    return Status::error("the executable's bytes hash to " + got + ", not to " + in->sha256_ +
                         ": refused");
  }
  const std::string path = dir_ + "/" + in->sha256_;
  ::chmod(in->tmp_.c_str(), 0755);
  if (::rename(in->tmp_.c_str(), path.c_str()) != 0) {
    return Status::error("cannot keep " + path + ": " + std::strerror(errno));
  }
  in->kept_ = true;
  return path;
}

void BinaryCache::abandon(std::unique_ptr<Incoming> in) { in.reset(); }

BinaryCache::Incoming::~Incoming() {
  if (fd_ >= 0) ::close(fd_);
  if (!kept_) ::unlink(tmp_.c_str());
}

void BinaryCache::evict(const std::set<std::string>& in_use) {
  struct Entry {
    fs::path path;
    std::uint64_t size;
    fs::file_time_type used;
  };
  std::vector<Entry> entries;
  std::uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    const std::string name = e.path().filename().string();
    if (!valid_sha256(name)) continue;
    const std::uint64_t size = e.file_size(ec);
    entries.push_back({e.path(), size, e.last_write_time(ec)});
    total += size;
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total <= max_bytes_) break;
    if (in_use.count(e.path.filename().string())) continue;
    if (fs::remove(e.path, ec)) total -= e.size;
  }
}

}  // namespace drift
