#include "wave_task.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wave {

namespace {

// A halo: the step it belongs to, the side of the receiver it is for, the value.
struct Halo {
  std::uint64_t step = 0;
  std::uint32_t side = 0;
  double value = 0;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(step, side, value);
  }
};

}  // namespace

WaveTask::WaveTask(const Params& p, std::uint32_t tasks, std::uint32_t index, std::uint64_t steps)
    : params_(p), tasks_(tasks), index_(index), steps_(steps) {
  first_ = segment_start(p, tasks, index);
  const std::uint64_t last = segment_start(p, tasks, index + 1);
  for (std::uint64_t i = first_; i < last; ++i) u_.push_back(initial_value(p, i));
  prev_ = u_;  // at rest
}

void WaveTask::start(drift::Context& ctx) {
  if (started_) return;  // restored or moved: it goes on where it was
  started_ = true;
  send_halos(ctx);
  try_advance(ctx);
}

void WaveTask::send_halos(drift::Context& ctx) {
  const drift::TaskId self = ctx.self();
  if (index_ > 0) {
    ctx.send({self.job, index_ - 1}, kHaloTag,
             drift::encode_portable(Halo{step_, kRight, u_.front()}));
  }
  if (index_ + 1 < tasks_) {
    ctx.send({self.job, index_ + 1}, kHaloTag,
             drift::encode_portable(Halo{step_, kLeft, u_.back()}));
  }
}

void WaveTask::receive(drift::Context& ctx, drift::Message&& msg) {
  Halo h;
  if (msg.tag != kHaloTag || !drift::decode_portable(msg.payload, h) || h.side > 1 ||
      h.step < step_ || h.step > step_ + 1) {
    return ctx.fail("task " + std::to_string(index_) + ": an unexpected message from task " +
                    std::to_string(msg.from.index));
  }
  auto [it, fresh] = halos_.try_emplace(h.step, std::array<double, 2>{NAN, NAN});
  it->second[h.side] = h.value;
  try_advance(ctx);
}

void WaveTask::try_advance(drift::Context& ctx) {
  if (computed_ || step_ >= steps_) return;
  std::array<double, 2> halo{NAN, NAN};
  if (auto it = halos_.find(step_); it != halos_.end()) halo = it->second;
  // A segment at a fixed end needs no halo on that side.
  const bool left_ready = index_ == 0 || !std::isnan(halo[kLeft]);
  const bool right_ready = index_ + 1 == tasks_ || !std::isnan(halo[kRight]);
  if (!left_ready || !right_ready) return;
  double energy = 0, largest = 0;
  ctx.compute(static_cast<double>(u_.size()), [&] {
    std::vector<double> next(u_.size());
    for (std::size_t k = 0; k < u_.size(); ++k) {
      const std::uint64_t i = first_ + k;
      if (i == 0 || i + 1 == params_.points) {
        next[k] = 0;  // fixed ends
        continue;
      }
      const double left = k == 0 ? halo[kLeft] : u_[k - 1];
      const double right = k + 1 == u_.size() ? halo[kRight] : u_[k + 1];
      next[k] = advance(left, u_[k], right, prev_[k], params_.c2);
      energy += next[k] * next[k];
      largest = std::max(largest, std::fabs(next[k]));
    }
    prev_ = std::move(u_);
    u_ = std::move(next);
  });
  halos_.erase(step_);
  computed_ = true;
  ctx.contribute(step_, {energy, largest});
}

void WaveTask::reduced(drift::Context& ctx, std::uint64_t step, const std::vector<double>&) {
  if (!computed_ || step != step_) {
    return ctx.fail("task " + std::to_string(index_) + ": the reduction of step " +
                    std::to_string(step) + " while at step " + std::to_string(step_));
  }
  computed_ = false;
  ++step_;
  if (step_ == steps_) return ctx.finish(drift::encode_portable(u_));
  send_halos(ctx);
  try_advance(ctx);
}

}  // namespace wave
