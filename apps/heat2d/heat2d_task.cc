// The heat2d task (heat2d_task.h).
#include "apps/heat2d/heat2d_task.h"

#include <algorithm>
#include <string>
#include <utility>

#include "apps/heat2d/checksum.h"
#include "apps/heat2d/halo_message.h"
#include "apps/heat2d/initial_condition.h"
#include "apps/heat2d/task_result.h"
#include "node/context.h"

namespace drift::heat2d {

Heat2dTask::Heat2dTask(const Params& params, std::uint32_t index) : params_(params), index_(index) {
  tile_ = tile_of(*make_tiling(params.width, params.height, params.tasks), index);
  stride_ = tile_.cols.size() + 2;
  cells_.assign((tile_.rows.size() + 2) * stride_, 0.0);
  for (std::uint32_t r = tile_.rows.begin; r < tile_.rows.end; ++r) {
    for (std::uint32_t c = tile_.cols.begin; c < tile_.cols.end; ++c) {
      cells_[(r - tile_.rows.begin + 1) * stride_ + (c - tile_.cols.begin + 1)] =
          initial_value(r, c, params.width, params.height);
    }
  }
}

void Heat2dTask::start(Context& ctx) {
  // Also called after a restore: only the first start sends step 0's edges.
  if (phase_ == Phase::kIdle) {
    phase_ = Phase::kExchanging;
    send_halos(ctx);
  }
  try_sweep(ctx);
}

void Heat2dTask::receive(Context& ctx, Message&& msg) {
  if (phase_ == Phase::kDone || phase_ == Phase::kFailed) return;
  if (!accept_halo(msg)) {
    return fail(ctx, "refused a message with tag " + std::to_string(msg.tag) + " from task " +
                         std::to_string(msg.from.index));
  }
  try_sweep(ctx);
}

void Heat2dTask::reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) {
  if (phase_ == Phase::kDone || phase_ == Phase::kFailed) return;
  if (phase_ != Phase::kReducing || step != step_ || values.size() != 2) {
    return fail(ctx, "unexpected reduction for step " + std::to_string(step));
  }
  last_reduction_ = values;
  ++step_;
  if (step_ == params_.steps) {
    phase_ = Phase::kDone;
    ctx.finish(encode_portable(TaskResult{partial_checksum(), values[0], values[1]}));
    return;
  }
  phase_ = Phase::kExchanging;
  send_halos(ctx);
  try_sweep(ctx);
}

double Heat2dTask::load() const {
  return static_cast<double>(tile_.rows.size()) * static_cast<double>(tile_.cols.size());
}

void Heat2dTask::send_halos(Context& ctx) {
  for (int s = 0; s < kSides; ++s) {
    const std::uint32_t to = tile_.neighbour[s];
    if (to == kNoNeighbour) continue;
    HaloMessage halo{step_, edge(static_cast<Side>(s))};
    ctx.send(TaskId{ctx.self().job, to}, kHaloTag, encode_portable(halo));
  }
}

// Sweeps step_ once every neighbour's edge of step_ is here.
void Heat2dTask::try_sweep(Context& ctx) {
  if (phase_ != Phase::kExchanging) return;
  const auto ready = static_cast<std::size_t>(std::count_if(
      pending_.begin(), pending_.end(), [&](const PendingHalo& h) { return h.step == step_; }));
  if (ready < neighbour_count()) return;
  for (const PendingHalo& h : pending_) {
    if (h.step == step_) install(static_cast<Side>(h.side), h.values);
  }
  std::erase_if(pending_, [&](const PendingHalo& h) { return h.step == step_; });

  if (scratch_.size() != cells_.size()) scratch_ = cells_;  // boundary cells never change
  const Window window = interior_window();
  SweepStats stats;
  ctx.compute(static_cast<double>(window.cells()),
              [&] { stats = jacobi_sweep(cells_, scratch_, stride_, window); });
  std::swap(cells_, scratch_);
  phase_ = Phase::kReducing;
  ctx.contribute(step_, {stats.sum_sq_change, stats.max_abs_change});
}

void Heat2dTask::fail(Context& ctx, const std::string& reason) {
  phase_ = Phase::kFailed;
  ctx.fail(reason);
}

// Checks and buffers one halo; false on any protocol violation.
bool Heat2dTask::accept_halo(const Message& msg) {
  if (msg.tag != kHaloTag) return false;
  const auto it = std::find(tile_.neighbour.begin(), tile_.neighbour.end(), msg.from.index);
  if (msg.from.index == kNoNeighbour || it == tile_.neighbour.end()) return false;
  const auto side = static_cast<Side>(it - tile_.neighbour.begin());
  HaloMessage halo;
  if (!decode_portable(msg.payload, halo)) return false;
  if (halo.values.size() != side_length(side)) return false;
  // A neighbour is at most one step ahead: it needs our contribution to step_ to pass it.
  const std::uint64_t first = phase_ == Phase::kReducing ? step_ + 1 : step_;
  if (halo.step < first || halo.step > step_ + 1) return false;
  for (const PendingHalo& h : pending_) {
    if (h.step == halo.step && h.side == side) return false;
  }
  pending_.push_back(
      PendingHalo{halo.step, static_cast<std::uint8_t>(side), std::move(halo.values)});
  return true;
}

std::size_t Heat2dTask::side_length(Side s) const {
  return s == kNorth || s == kSouth ? tile_.cols.size() : tile_.rows.size();
}

std::size_t Heat2dTask::neighbour_count() const {
  return static_cast<std::size_t>(std::count_if(tile_.neighbour.begin(), tile_.neighbour.end(),
                                                [](std::uint32_t n) { return n != kNoNeighbour; }));
}

// Local coordinates: owned cell (r, c) of the grid is at (r - rows.begin + 1, c - cols.begin + 1).
std::vector<double> Heat2dTask::edge(Side s) const {
  const std::size_t rows = tile_.rows.size(), cols = tile_.cols.size();
  std::vector<double> out(side_length(s));
  for (std::size_t k = 0; k < out.size(); ++k) {
    switch (s) {
      case kNorth:
        out[k] = cells_[1 * stride_ + 1 + k];
        break;
      case kSouth:
        out[k] = cells_[rows * stride_ + 1 + k];
        break;
      case kWest:
        out[k] = cells_[(1 + k) * stride_ + 1];
        break;
      case kEast:
        out[k] = cells_[(1 + k) * stride_ + cols];
        break;
    }
  }
  return out;
}

void Heat2dTask::install(Side s, const std::vector<double>& values) {
  const std::size_t rows = tile_.rows.size(), cols = tile_.cols.size();
  for (std::size_t k = 0; k < values.size(); ++k) {
    switch (s) {
      case kNorth:
        cells_[1 + k] = values[k];
        break;
      case kSouth:
        cells_[(rows + 1) * stride_ + 1 + k] = values[k];
        break;
      case kWest:
        cells_[(1 + k) * stride_] = values[k];
        break;
      case kEast:
        cells_[(1 + k) * stride_ + cols + 1] = values[k];
        break;
    }
  }
}

Window Heat2dTask::owned_window() const {
  return Window{1, tile_.rows.size() + 1u, 1, tile_.cols.size() + 1u};
}

Window Heat2dTask::interior_window() const {
  const auto local = [](std::uint32_t global, const Range& r) {
    return static_cast<std::size_t>(global) - r.begin + 1;
  };
  const std::uint32_t r0 = std::max(tile_.rows.begin, 1u);
  const std::uint32_t r1 = std::min(tile_.rows.end, params_.height - 1);
  const std::uint32_t c0 = std::max(tile_.cols.begin, 1u);
  const std::uint32_t c1 = std::min(tile_.cols.end, params_.width - 1);
  return Window{local(r0, tile_.rows), local(r1, tile_.rows), local(c0, tile_.cols),
                local(c1, tile_.cols)};
}

std::uint64_t Heat2dTask::partial_checksum() const {
  return block_checksum(cells_, stride_, owned_window(),
                        static_cast<std::int64_t>(tile_.rows.begin) - 1,
                        static_cast<std::int64_t>(tile_.cols.begin) - 1, params_.width);
}

void Heat2dTask::check_loaded(const Params& params, std::uint32_t index) const {
  if (index != index_ || !(params == params_)) {
    throw WireError("heat2d state of task " + std::to_string(index) + " (" +
                    format_size(params.width, params.height) + ", " + std::to_string(params.tasks) +
                    " tasks) loaded into task " + std::to_string(index_) + " (" +
                    format_size(params_.width, params_.height) + ", " +
                    std::to_string(params_.tasks) + " tasks)");
  }
  if (cells_.size() != (tile_.rows.size() + 2) * stride_) {
    throw WireError("heat2d state of task " + std::to_string(index) + ": " +
                    std::to_string(cells_.size()) + " cells, expected " +
                    std::to_string((tile_.rows.size() + 2) * stride_));
  }
  if (step_ > params_.steps) {
    throw WireError("heat2d state of task " + std::to_string(index) + ": step " +
                    std::to_string(step_) + " beyond " + std::to_string(params_.steps));
  }
  for (const PendingHalo& h : pending_) {
    if (h.side >= kSides || tile_.neighbour[h.side] == kNoNeighbour ||
        h.values.size() != side_length(static_cast<Side>(h.side))) {
      throw WireError("heat2d state of task " + std::to_string(index) + ": bad pending halo");
    }
  }
}

}  // namespace drift::heat2d
