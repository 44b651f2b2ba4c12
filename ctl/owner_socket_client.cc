// ask_owner_socket() (owner_socket_client.h).
#include "ctl/owner_socket_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "ctl/exit_codes.h"
#include "protocol/codec.h"
#include "protocol/frame.h"

namespace drift::ctl {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint32_t kMaxAnswerBody = 8u << 20;

class SocketFd {
 public:
  explicit SocketFd(int fd) : fd_(fd) {}
  ~SocketFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Waits until `fd` is ready for `events` or the deadline passes.
bool wait(int fd, short events, Clock::time_point deadline) {
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(left.count()));
    if (n > 0) return true;
    if (n < 0 && errno != EINTR) return false;
  }
}

Status transfer(int fd, std::uint8_t* data, std::size_t size, bool out, Clock::time_point deadline,
                const std::string& path) {
  std::size_t done = 0;
  while (done < size) {
    if (!wait(fd, out ? POLLOUT : POLLIN, deadline)) {
      return Status::error(path + ": no answer in time");
    }
    const ssize_t n = out ? ::send(fd, data + done, size - done, MSG_NOSIGNAL)
                          : ::recv(fd, data + done, size - done, 0);
    if (n == 0) return Status::error(path + ": the daemon closed the connection");
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return Status::error(path + ": " + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  return Status::ok();
}

}  // namespace

Result<WireMessage> ask_owner_socket(const std::string& path, const WireMessage& request,
                                     std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) return Status::error(path + ": path too long");
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  SocketFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) return Status::error(std::string("socket: ") + std::strerror(errno));
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    return Status::error("cannot connect to the owner socket " + path + ": " + std::strerror(errno));
  }
  auto frame = encode(request);
  if (Status st = transfer(fd.get(), frame.data(), frame.size(), true, deadline, path); !st) return st;
  std::array<std::uint8_t, kFrameHeaderSize> head{};
  if (Status st = transfer(fd.get(), head.data(), head.size(), false, deadline, path); !st) return st;
  auto header = decode_header(head, kMaxAnswerBody);
  if (!header) return Status::error(path + ": " + header.error());
  std::vector<std::uint8_t> body(header->length);
  if (Status st = transfer(fd.get(), body.data(), body.size(), false, deadline, path); !st) return st;
  auto answer = decode_body(header->type, body);
  if (!answer) return Status::error(path + ": " + answer.error());
  if (const auto* refused = std::get_if<Refused>(&*answer)) {
    return Status::error(kRefusedPrefix + path + ": " + refused->message);
  }
  return answer;
}

}  // namespace drift::ctl
