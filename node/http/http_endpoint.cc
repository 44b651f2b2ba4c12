// The HTTP endpoint's threads and its hand-over to the network thread (http_endpoint.h).
#include "node/http/http_endpoint.h"
#include "node/http/loopback_host.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <future>
#include <mutex>
#include <vector>

namespace drift {

class BoundedPool;

struct HttpEndpoint::State {
  std::map<std::string, Route> routes;  // fixed once serving
  Gate gate;                            // set with TLS
  asio::io_context* io = nullptr;       // posted to only while !closed (under `mu`)
  std::mutex mu;
  bool closed = false;             // under `mu`: nothing is posted to `io` once set
  BoundedPool* pool = nullptr;     // under `mu`: cpp-httplib's task queue while it lives
  std::atomic<bool> closing{false};  // the same as `closed`, for the waits that poll it
  std::atomic<bool> serving{false};  // the listening thread runs
  std::atomic<std::uint64_t> requests{0};
};

// cpp-httplib's task queue, bounded: enqueue() (the accept loop) waits while kQueued
// connections already wait for one of the threads — until the endpoint closes, when it no
// longer waits, so that the loop can see it was stopped.
class BoundedPool final : public httplib::TaskQueue {
 public:
  BoundedPool(std::shared_ptr<HttpEndpoint::State> state, int threads, std::size_t queued)
      : state_(std::move(state)), max_queued_(queued) {
    {
      std::lock_guard lock(state_->mu);
      state_->pool = this;
      closing_ = state_->closed;
    }
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
  }
  ~BoundedPool() override {
    std::lock_guard lock(state_->mu);
    if (state_->pool == this) state_->pool = nullptr;
  }
  void enqueue(std::function<void()> fn) override {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return jobs_.size() < max_queued_ || shutdown_ || closing_; });
    jobs_.push_back(std::move(fn));
    ready_.notify_one();
  }
  void shutdown() override {
    {
      std::lock_guard lock(mutex_);
      shutdown_ = true;
    }
    ready_.notify_all();
    room_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  // The endpoint closes: the accept loop must not wait for room any more.
  void close() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    room_.notify_all();
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return !jobs_.empty() || shutdown_; });
        if (jobs_.empty()) return;  // shut down, nothing left
        fn = std::move(jobs_.front());
        jobs_.pop_front();
        room_.notify_one();
      }
      fn();  // serves one connection, then closes it
    }
  }
  std::shared_ptr<HttpEndpoint::State> state_;
  const std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  bool shutdown_ = false, closing_ = false;
};

namespace {

using Page = HttpEndpoint::Page;

Page unavailable() {
  return {"the daemon did not answer in time (busy or stopping)\n", "text/plain; charset=utf-8",
          503};
}

// On a request thread: the page `path` gives, built on the network thread.
Page answer(const std::shared_ptr<HttpEndpoint::State>& state, const std::string& path,
            const std::string& authorization) {
  ++state->requests;
  auto page = std::make_shared<std::promise<Page>>();
  std::future<Page> ready = page->get_future();
  {
    std::lock_guard lock(state->mu);
    if (state->closed) return unavailable();
    asio::post(*state->io, [weak = std::weak_ptr<HttpEndpoint::State>(state), path,
                            authorization, page] {
      auto s = weak.lock();
      if (!s || s->closing) return;  // the promise breaks: 503
      try {
        const HttpEndpoint::Route& route = s->routes.at(path);
        Principal who{Role::kAdmin, "local"};  // plain HTTP: only this machine can ask
        if (s->gate && route.gated) {
          auto named = s->gate(authorization);
          if (!named) {
            page->set_value({"401 " + named.error() + "\n", "text/plain; charset=utf-8", 401});
            return;
          }
          who = *named;
        }
        page->set_value(route.build(who));
      } catch (const std::exception& e) {
        spdlog::warn("http: {} failed: {}", path, e.what());
        page->set_value({std::string("could not build the answer: ") + e.what() + "\n",
                         "text/plain; charset=utf-8", 500});
      }
    });
  }
  // In slices, so that a daemon that stops meanwhile frees the thread at once.
  const auto deadline = std::chrono::steady_clock::now() + HttpEndpoint::kBuildWait;
  while (std::chrono::steady_clock::now() < deadline && !state->closing) {
    if (ready.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) continue;
    try {
      return ready.get();
    } catch (const std::future_error&) {
      break;
    }
  }
  return unavailable();
}

}  // namespace

HttpEndpoint::HttpEndpoint(asio::io_context& io, std::map<std::string, Route> routes)
    : state_(std::make_shared<State>()) {
  state_->routes = std::move(routes);
  state_->io = &io;
}

HttpEndpoint::~HttpEndpoint() {
  close();
  if (!thread_.joinable()) return;
  // stop() closes the listening socket only once the loop runs; until the thread says it is
  // done, ask again (a start() moments ago may not have entered the loop yet).
  const auto deadline = std::chrono::steady_clock::now() + kStopWait;
  while (state_->serving && std::chrono::steady_clock::now() < deadline) {
    server_->stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!state_->serving) {
    thread_.join();
    return;
  }
  // A request thread is held by a client trickling its request a byte at a time (each read
  // within the timeout). The daemon does not wait for it: the thread, and the server it uses,
  // are left to the process's exit; they touch nothing of the daemon's (closed above).
  spdlog::warn("http: a client still holds a request thread; not waiting for it");
  thread_.detach();
  (void)server_.release();
}

Status HttpEndpoint::start(const Endpoint& at, std::optional<Tls> tls) {
  if (tls) {
    auto secure = std::make_unique<httplib::SSLServer>(tls->cert.c_str(), tls->key.c_str());
    if (!secure->is_valid()) {
      return Status::error("cannot use the certificate " + tls->cert + " with the key " +
                           tls->key + " (unreadable, not PEM, or not a pair)");
    }
    server_ = std::move(secure);
    state_->gate = std::move(tls->gate);
  } else {
    server_ = std::make_unique<httplib::Server>();
  }
  httplib::Server& s = *server_;
  s.new_task_queue = [state = state_] { return new BoundedPool(state, kThreads, kQueued); };
  s.set_tcp_nodelay(true);  // small answers: no waiting for the client's delayed ACK
  s.set_read_timeout(kIoTimeout);
  s.set_write_timeout(kIoTimeout);
  s.set_keep_alive_timeout(kIoTimeout.count());
  s.set_keep_alive_max_count(100);
  s.set_payload_max_length(1024);  // GET only: a body is refused before it is read
  for (const auto& [path, route] : state_->routes) {
    s.Get(path, [state = state_, path = path](const httplib::Request& req, httplib::Response& res) {
      // Plain HTTP answers as the machine's admin: only to a request for a loopback name.
      const std::string host = req.get_header_value("Host");
      Page page = state->gate || loopback_host(host)
                      ? answer(state, path, req.get_header_value("Authorization"))
                      : Page{"403 Host '" + host.substr(0, 100) +
                                 "' is not this machine's loopback (localhost, 127.0.0.1, [::1])\n",
                             "text/plain; charset=utf-8", 403};
      if (page.status == 401) res.set_header("WWW-Authenticate", "Bearer realm=\"drift\"");
      res.status = page.status;
      res.set_header("Cache-Control", "no-store");
      res.set_content(std::move(page.body), page.content_type);
    });
  }
  errno = 0;
  const int port = at.port == 0 ? s.bind_to_any_port(at.literal_host())
                                : (s.bind_to_port(at.literal_host(), at.port) ? at.port : -1);
  if (port <= 0) {
    return Status::error("cannot listen on " + at.to_string() + ": " +
                         (errno != 0 ? std::string(std::strerror(errno)) : "bind failed"));
  }
  port_ = static_cast<std::uint16_t>(port);
  state_->serving = true;
  thread_ = std::thread([server = server_.get(), state = state_] {
    server->listen_after_bind();
    state->serving = false;
  });
  return Status::ok();
}

std::uint64_t HttpEndpoint::requests() const { return state_->requests.load(); }

void HttpEndpoint::close() {
  {
    std::lock_guard lock(state_->mu);
    state_->closed = true;
    state_->closing = true;
    if (state_->pool) state_->pool->close();
  }
  if (server_) server_->stop();
}

}  // namespace drift
