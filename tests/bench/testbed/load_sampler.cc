// Time series of the daemons' loads during a testbed run (load_sampler.h).
#include "tests/bench/testbed/load_sampler.h"

#include <algorithm>

#include "ctl/status_query.h"

namespace drift::bench {

namespace {
constexpr auto kStatusTimeout = std::chrono::seconds(2);
}

LoadSampler::LoadSampler(std::vector<ctl::ConnectOptions> nodes, std::chrono::milliseconds interval)
    : nodes_(std::move(nodes)), connections_(nodes_.size()), interval_(interval) {}

LoadSampler::~LoadSampler() { stop(); }

void LoadSampler::start() {
  began_ = std::chrono::steady_clock::now();
  stop_ = false;
  thread_ = std::thread([this] { loop(); });
}

void LoadSampler::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

std::vector<LoadSample> LoadSampler::samples() const {
  std::lock_guard lock(mutex_);
  return samples_;
}

LoadSample LoadSampler::sample_now(double t) {
  LoadSample s;
  s.t = t;
  const std::size_t n = nodes_.size();
  s.load.assign(n, 0);
  s.capacity.assign(n, 0);
  s.tasks.assign(n, 0);
  s.external.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!connections_[i]) {
      auto c = ctl::ClientConnection::open(nodes_[i]);
      if (!c) continue;  // a node that does not answer counts as empty this time
      connections_[i] = std::move(*c);
    }
    auto reply = ctl::query_status(*connections_[i], kStatusTimeout);
    if (!reply) {
      connections_[i].reset();
      continue;
    }
    const NodeStatus* self = ctl::find_node(*reply, reply->responder);
    if (!self) continue;
    s.load[i] = self->load.task_load;
    s.capacity[i] = self->load.capacity;
    s.tasks[i] = self->load.task_count;
    s.external[i] = self->load.load_average;
    s.migrations_in += self->counters.migrations_in;
    s.balance_rounds_max = std::max(s.balance_rounds_max, self->counters.balance_rounds);
    s.control_bytes += self->counters.heartbeat_bytes + self->counters.balance_bytes;
  }
  return s;
}

void LoadSampler::loop() {
  while (!stop_) {
    const auto at = std::chrono::steady_clock::now();
    LoadSample s = sample_now(std::chrono::duration<double>(at - began_).count());
    {
      std::lock_guard lock(mutex_);
      samples_.push_back(std::move(s));
    }
    const auto next = at + interval_;
    while (!stop_ && std::chrono::steady_clock::now() < next) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

}  // namespace drift::bench
