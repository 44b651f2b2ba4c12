// The HTTP endpoint's threads and its hand-over to the network thread (http_endpoint.h).
#include "node/http/http_endpoint.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <future>
#include <mutex>
#include <vector>

namespace drift {

namespace {

// cpp-httplib's task queue, bounded: enqueue() (the accept loop) waits while kQueued
// connections already wait for one of the threads.
class BoundedPool final : public httplib::TaskQueue {
 public:
  BoundedPool(int threads, std::size_t queued) : max_queued_(queued) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
  }
  void enqueue(std::function<void()> fn) override {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return jobs_.size() < max_queued_ || shutdown_; });
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
  const std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  bool shutdown_ = false;
};

}  // namespace

HttpEndpoint::HttpEndpoint(asio::io_context& io, std::map<std::string, Route> routes)
    : io_(io), state_(std::make_shared<State>()) {
  state_->routes = std::move(routes);
}

HttpEndpoint::~HttpEndpoint() {
  close();
  if (!thread_.joinable()) return;
  // stop() closes the listening socket only once the loop runs; until the thread says it is
  // done, ask again (a start() moments ago may not have entered the loop yet).
  while (serving_.load()) {
    server_->stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  thread_.join();
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
  s.new_task_queue = [] { return new BoundedPool(kThreads, kQueued); };
  s.set_tcp_nodelay(true);  // small answers: no waiting for the client's delayed ACK
  s.set_read_timeout(kIoTimeout);
  s.set_write_timeout(kIoTimeout);
  s.set_keep_alive_timeout(kIoTimeout.count());
  s.set_keep_alive_max_count(100);
  s.set_payload_max_length(1024);  // GET only: a body is refused before it is read
  for (const auto& [path, route] : state_->routes) {
    s.Get(path, [this, path = path](const httplib::Request& req, httplib::Response& res) {
      Page page = answer(path, req.get_header_value("Authorization"));
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
  serving_ = true;
  thread_ = std::thread([this] {
    server_->listen_after_bind();
    serving_ = false;
  });
  return Status::ok();
}

void HttpEndpoint::close() {
  state_->closed = true;
  if (server_) server_->stop();
}

HttpEndpoint::Page HttpEndpoint::answer(const std::string& path,
                                        const std::string& authorization) {
  ++state_->requests;
  if (state_->closed) return {"the daemon is stopping\n", "text/plain; charset=utf-8", 503};
  auto page = std::make_shared<std::promise<Page>>();
  std::future<Page> ready = page->get_future();
  asio::post(io_, [weak = std::weak_ptr<State>(state_), path, authorization, page] {
    auto state = weak.lock();
    if (!state || state->closed) return;  // the promise breaks: 503
    try {
      const Route& route = state->routes.at(path);
      Principal who{Role::kAdmin, "local"};  // plain HTTP: only this machine can ask
      if (state->gate && route.gated) {
        auto named = state->gate(authorization);
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
  // In slices, so that a daemon that stops meanwhile frees the thread at once.
  const auto deadline = std::chrono::steady_clock::now() + kBuildWait;
  while (std::chrono::steady_clock::now() < deadline && !state_->closed) {
    if (ready.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) continue;
    try {
      return ready.get();
    } catch (const std::future_error&) {
      break;
    }
  }
  return {"the daemon did not answer in time (busy or stopping)\n", "text/plain; charset=utf-8",
          503};
}

}  // namespace drift
