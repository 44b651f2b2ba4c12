#include "sdk/effects_hold.h"

#include <algorithm>
#include <utility>

namespace drift {

EffectsHold::EffectsHold(asio::io_context& io, Send send)
    : timer_(io), send_(std::move(send)) {}

EffectsHold::~EffectsHold() {
  *alive_ = false;
  timer_.cancel();
}

void EffectsHold::release_if_idle() {
  if (pending_ == 0) send_held();
}

bool EffectsHold::hold(Frame& report) {
  if (pending_ == 0) return false;
  last_ = Clock::now();
  held_.push_back(std::move(report));
  if (held_.size() >= kMaxHeld) {
    send_held();
  } else if (held_.size() == 1) {
    first_ = last_;
    arm(first_ + kQuiet);
  }
  return true;
}

// The timer is set again only when it expires (not on every report): a report costs no system
// call.
void EffectsHold::arm(Clock::time_point at) {
  timer_.expires_at(at);
  timer_.async_wait([this, alive = alive_](std::error_code ec) {
    if (!ec && *alive) on_timer();
  });
}

void EffectsHold::on_timer() {
  if (held_.empty()) return;
  const Clock::time_point now = Clock::now();
  const Clock::time_point quiet_end = last_ + kQuiet;
  const Clock::time_point age_end = first_ + kMaxAge;
  if (now >= quiet_end || now >= age_end) return send_held();
  arm(std::min(quiet_end, age_end));
}

void EffectsHold::take(std::vector<Frame>& out) {
  if (held_.empty()) return;
  timer_.cancel();
  for (Frame& f : held_) out.push_back(std::move(f));
  held_.clear();
}

void EffectsHold::send_held() {
  std::vector<Frame> out;
  take(out);
  if (!out.empty()) send_(std::move(out));
}

}  // namespace drift
