// driftd's read-only HTTP endpoint (http.listen; docs/architecture.md §13): /metrics, /api/…
// and the dashboard. cpp-httplib serves it on a few threads of its own with a short queue in
// front: when all are busy the accept loop waits, so clients — hostile ones too — cost a
// bounded number of threads, sockets and bytes, never the daemon's own. GET only; a request
// line, headers and body are bounded by the library and by the limits set here.
//
// Every answer is built on the network thread (posted to its io_context), the only thread that
// reads the daemon's state, and waited for at most kBuildWait: a daemon too busy to answer in
// time gets 503, not a stuck client.
//
// With a certificate and key it serves HTTPS, and a gate (run on the network thread too) says
// who each request's Authorization header names; a request it refuses gets 401. Without, every
// request is the machine's own ("local", an admin).
#pragma once

#include <asio.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include <drift/status.h>
#include "node/net/access_token.h"
#include "node/net/endpoint.h"

namespace httplib {
class Server;
}

namespace drift {

class HttpEndpoint {
 public:
  struct Page {
    std::string body;
    std::string content_type = "text/plain; charset=utf-8";
    int status = 200;
  };
  // Runs on the network thread, for whom the request came from.
  using Builder = std::function<Page(const Principal& who)>;
  // Who the Authorization header's value names, or why it names nobody. Network thread.
  using Gate = std::function<Result<Principal>(const std::string& authorization)>;
  struct Route {
    Builder build;
    bool gated = true;  // false: served to anyone (the dashboard page itself, no data)
  };
  struct Tls {
    std::string cert, key;  // PEM files
    Gate gate;
  };

  static constexpr int kThreads = 4;        // requests answered at once
  static constexpr int kQueued = 8;         // connections accepted and waiting for a thread
  static constexpr std::chrono::seconds kIoTimeout{2};  // per read and per write
  static constexpr std::chrono::milliseconds kBuildWait{2000};
  static constexpr std::chrono::milliseconds kStopWait{3000};

  // `routes`: path -> its builder.
  HttpEndpoint(asio::io_context& io, std::map<std::string, Route> routes);
  // Closes, then joins the threads; a thread still held after kStopWait by a client that
  // trickles its request is left to the process's exit (the daemon does not wait for it).
  ~HttpEndpoint();
  HttpEndpoint(const HttpEndpoint&) = delete;
  HttpEndpoint& operator=(const HttpEndpoint&) = delete;

  // Binds `at` (an IP literal or localhost) and serves on a thread of its own; HTTPS with `tls`.
  Status start(const Endpoint& at, std::optional<Tls> tls = std::nullopt);
  // Stops accepting; requests still waiting for an answer get 503. Any thread.
  void close();
  std::uint16_t port() const { return port_; }
  std::uint64_t requests() const;

  // What the endpoint's threads share (http_endpoint.cc); outlives the endpoint while one of
  // them, or a handler posted to the network thread, still holds it.
  struct State;

 private:
  std::shared_ptr<State> state_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  std::uint16_t port_ = 0;
};

}  // namespace drift
