// The owner's own controls (docs/architecture.md §9): driftd also listens on a local Unix socket
// (owner.socket, /run/drift/driftd.sock in the package), where a person logged in at this PC asks
// for its status or reclaims and releases it with no secret and no token. The kernel says who is
// on the other end (SO_PEERCRED): root, a member of owner.group (drift-owners) or a user named in
// owner.users may; anyone else is answered Refused and the connection closed. The socket file is
// mode 0666: who may use it is decided by those credentials, not by the file. Frames as on TCP,
// but no TLS (nothing leaves the machine) and no Hello: one request, one answer, until the client
// hangs up; requests are at most 4 KiB. Network thread only.
#pragma once

#include <asio.hpp>

#include <functional>
#include <memory>
#include <set>
#include <string>

#include <drift/status.h>
#include "protocol/messages.h"

namespace drift {

class OwnerSocket {
 public:
  struct Params {
    std::string path;
    std::string group = "drift-owners";
    std::set<std::string> users;
  };
  // Answers a request from `user` (StatusRequest or OwnerRequest).
  using Handler = std::function<WireMessage(const WireMessage& request, const std::string& user)>;

  OwnerSocket(asio::io_context& io, Params params, Handler handler);
  ~OwnerSocket();

  // Binds (replacing a stale socket file, never a live daemon's) and accepts; the error names the
  // path and the reason.
  Status listen();
  void close();

  // Whether the user `uid` (with primary group `gid`) may use the socket, by these params.
  static bool allowed(const Params& params, uid_t uid, gid_t gid, std::string& name);

 private:
  class Session;
  void accept();

  asio::io_context& io_;
  Params params_;
  Handler handler_;
  asio::local::stream_protocol::acceptor acceptor_;
  bool listening_ = false;
};

}  // namespace drift
