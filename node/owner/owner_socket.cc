#include "node/owner/owner_socket.h"

#include <grp.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include <spdlog/spdlog.h>

#include "protocol/codec.h"
#include "protocol/frame.h"

namespace drift {

namespace {

constexpr std::uint32_t kMaxRequestBody = 4096;

}  // namespace

// One client: read a frame, answer it, read the next; any error or refusal closes it. A client
// who may not use the socket gets its first request read, then Refused (closing at once would
// reset the connection under a request still being written, and it would never hear why).
class OwnerSocket::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(asio::local::stream_protocol::socket socket, std::string user, const Handler& handler,
          std::string refusal)
      : socket_(std::move(socket)),
        user_(std::move(user)),
        handler_(handler),
        refusal_(std::move(refusal)) {}

  void start() { read_header(); }

  void refuse(const std::string& why) {
    answer(Refused{"any", 0, why}, /*then_close=*/true);
  }

 private:
  void read_header() {
    auto self = shared_from_this();
    asio::async_read(socket_, asio::buffer(header_), [self](std::error_code ec, std::size_t) {
      if (ec) return;  // the client hung up
      auto header = decode_header(self->header_, kMaxRequestBody);
      if (!header) return self->refuse("refused frame: " + header.error());
      self->body_.resize(header->length);
      asio::async_read(self->socket_, asio::buffer(self->body_),
                       [self, type = header->type](std::error_code e, std::size_t) {
                         if (e) return;
                         self->on_request(type);
                       });
    });
  }

  void on_request(std::uint16_t type) {
    if (!refusal_.empty()) return refuse(refusal_);
    auto request = decode_body(type, body_);
    if (!request) return refuse("refused frame: " + request.error());
    if (!std::holds_alternative<StatusRequest>(*request) &&
        !std::holds_alternative<OwnerRequest>(*request)) {
      return answer(Refused{to_string(type_of(*request)), 0,
                            "the owner's socket takes only status, reclaim and release"},
                    true);
    }
    answer(handler_(*request, user_), false);
  }

  void answer(const WireMessage& reply, bool then_close) {
    out_ = encode(reply);
    auto self = shared_from_this();
    asio::async_write(socket_, asio::buffer(out_), [self, then_close](std::error_code ec, std::size_t) {
      if (ec || then_close) {
        std::error_code ignored;
        self->socket_.close(ignored);
        return;
      }
      self->read_header();
    });
  }

  asio::local::stream_protocol::socket socket_;
  std::string user_;
  Handler handler_;
  std::string refusal_;  // not empty: why this client may not
  std::array<std::uint8_t, kFrameHeaderSize> header_{};
  std::vector<std::uint8_t> body_;
  std::vector<std::uint8_t> out_;
};

OwnerSocket::OwnerSocket(asio::io_context& io, Params params, Handler handler)
    : io_(io), params_(std::move(params)), handler_(std::move(handler)), acceptor_(io) {}

OwnerSocket::~OwnerSocket() { close(); }

Status OwnerSocket::listen() {
  if (params_.path.empty()) return Status::ok();
  if (params_.path.size() >= sizeof(sockaddr_un{}.sun_path)) {
    return Status::error("owner.socket '" + params_.path + "': a socket path is at most " +
                         std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) + " bytes");
  }
  std::error_code ec;
  const asio::local::stream_protocol::endpoint at(params_.path);
  struct stat st {};
  if (::lstat(params_.path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return Status::error("owner.socket '" + params_.path + "' exists and is not a socket");
    }
    asio::local::stream_protocol::socket probe(io_);
    probe.connect(at, ec);
    if (!ec) return Status::error("owner.socket '" + params_.path + "' is another daemon's");
    ::unlink(params_.path.c_str());  // a stale one, from a daemon that did not stop cleanly
    ec.clear();
  }
  acceptor_.open(at.protocol(), ec);
  if (!ec) acceptor_.bind(at, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Status::error("owner.socket '" + params_.path + "': " + ec.message());
  ::chmod(params_.path.c_str(), 0666);  // who may: decided by the peer's credentials
  listening_ = true;
  accept();
  return Status::ok();
}

void OwnerSocket::close() {
  if (!listening_) return;
  listening_ = false;
  std::error_code ignored;
  acceptor_.close(ignored);
  ::unlink(params_.path.c_str());
}

bool OwnerSocket::allowed(const Params& params, uid_t uid, gid_t gid, std::string& name) {
  name = "uid " + std::to_string(uid);
  std::vector<char> buffer(16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(uid, &pw, buffer.data(), buffer.size(), &found) == 0 && found) {
    name = found->pw_name;
  }
  if (uid == 0) return true;
  if (found && params.users.contains(name)) return true;
  if (!found || params.group.empty()) return false;
  group gr{};
  group* owners = nullptr;
  std::vector<char> group_buffer(65536);
  if (::getgrnam_r(params.group.c_str(), &gr, group_buffer.data(), group_buffer.size(), &owners) != 0 ||
      !owners) {
    return false;
  }
  if (owners->gr_gid == gid) return true;
  int count = 64;
  std::vector<gid_t> groups(static_cast<std::size_t>(count));
  if (::getgrouplist(found->pw_name, found->pw_gid, groups.data(), &count) < 0) {
    groups.resize(static_cast<std::size_t>(count));
    if (::getgrouplist(found->pw_name, found->pw_gid, groups.data(), &count) < 0) return false;
  }
  groups.resize(static_cast<std::size_t>(count));
  for (gid_t g : groups) {
    if (g == owners->gr_gid) return true;
  }
  return false;
}

void OwnerSocket::accept() {
  acceptor_.async_accept([this](std::error_code ec, asio::local::stream_protocol::socket socket) {
    if (ec) {
      if (listening_) spdlog::warn("owner.socket: accept failed: {}", ec.message());
      if (!listening_ || ec == asio::error::operation_aborted) return;
      return accept();
    }
    ucred cred{};
    socklen_t length = sizeof cred;
    std::string user = "unknown";
    const bool known =
        ::getsockopt(socket.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &length) == 0;
    const bool may = known && allowed(params_, cred.uid, cred.gid, user);
    std::string refusal;
    if (!may) {
      spdlog::info("owner.socket: refused {}: not root, not in group {}, not in owner.users", user,
                   params_.group);
      refusal = "user " + user + " may not use this PC's owner socket (group " + params_.group +
                " or owner.users)";
    }
    std::make_shared<Session>(std::move(socket), user, handler_, refusal)->start();
    accept();
  });
}

}  // namespace drift
