// The heat2d task (heat2d_task.h).
#include "apps/heat2d/heat2d_task.h"

#include <algorithm>
#include <span>
#include <utility>

#include "apps/heat2d/halo_message.h"
#include "apps/heat2d/piece_message.h"
#include "apps/heat2d/task_result.h"
#include <drift/context.h>

namespace drift::heat2d {

Heat2dTask::Heat2dTask(const Params& params, std::uint32_t index)
    : params_(params), index_(index), layout_(initial_layout(params)) {
  if (const std::optional<Rect> tile = layout_.tile(index)) {
    cells_ = TileCells::initial(*tile, params.width, params.height);
  }
}

void Heat2dTask::start(Context& ctx) {
  // Also called after a restore: only the first start enters step 0.
  if (phase_ == Phase::kIdle) return enter_step(ctx);
  progress(ctx);
}

void Heat2dTask::receive(Context& ctx, Message&& msg) {
  if (over()) return;
  if (std::string why = accept(std::move(msg)); !why.empty()) return fail(ctx, why);
  progress(ctx);
}

void Heat2dTask::reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) {
  if (over()) return;
  if (phase_ != Phase::kReducing || step != step_ || values.size() != 2) {
    return fail(ctx, "unexpected reduction for step " + std::to_string(step));
  }
  last_reduction_ = values;
  ++step_;
  enter_step(ctx);
}

// Every task applies the same changes to its layout; those handing cells over send them now
// (the values after sweep `step`, the inputs of step + 1), those taking cells adopt them when
// step + 1 begins.
void Heat2dTask::regrain(Context& ctx, std::uint64_t step,
                         const std::vector<GrainChange>& changes) {
  if (over() || changes.empty()) return;
  if (phase_ != Phase::kReducing || step != step_) {
    return fail(ctx, "unexpected regrain for step " + std::to_string(step));
  }
  if (regrained_) return;  // the runtime regrains a step once; a repeat would move cells twice
  regrained_ = true;
  const Layout before = layout_;
  for (const GrainChange& change : layout_.apply(changes)) hand_over(ctx, before, change);
  if (layout_.tile(index_) != before.tile(index_)) cells_ = cells_.reshaped(layout_.tile(index_));
}

double Heat2dTask::load() const {
  const std::optional<Rect> tile = layout_.tile(index_);
  return tile ? static_cast<double>(tile->cells()) : 0.0;
}

bool Heat2dTask::can_split() const { return !over() && layout_.can_split(index_); }

std::optional<std::uint32_t> Heat2dTask::merge_partner() const {
  return over() ? std::nullopt : layout_.merge_partner(index_);
}

// step_'s layout is final: adopt, or send edges (a spare task has none), or finish.
void Heat2dTask::enter_step(Context& ctx) {
  regrained_ = false;
  if (adoption_) {
    phase_ = Phase::kAdopting;
  } else if (step_ == params_.steps) {
    return finish(ctx);
  } else {
    phase_ = Phase::kExchanging;
    send_halos(ctx);
  }
  progress(ctx);
}

// Checks the messages of step_ and moves on as far as they allow.
void Heat2dTask::progress(Context& ctx) {
  if (!settled()) return;
  const std::vector<Neighbour> adjacent = layout_.adjacent(index_);
  if (std::string why = inbox_.check(step_, adjacent, adoption_); !why.empty()) {
    return fail(ctx, "refused " + why);
  }
  if (phase_ == Phase::kAdopting && !adopt(ctx)) return;
  if (phase_ == Phase::kExchanging && inbox_.halos_complete(step_, adjacent)) sweep(ctx, adjacent);
}

// Installs the adopted cells once all are here; false while waiting or after finishing.
bool Heat2dTask::adopt(Context& ctx) {
  if (!inbox_.pieces_complete(step_, adoption_->rect.cells())) return false;
  cells_.paste(adoption_->rect, inbox_.take_pieces(step_));
  adoption_.reset();
  if (step_ == params_.steps) {
    finish(ctx);
    return false;
  }
  phase_ = Phase::kExchanging;
  send_halos(ctx);
  return true;
}

void Heat2dTask::send_halos(Context& ctx) {
  for (const Neighbour& n : layout_.adjacent(index_)) {
    HaloMessage halo{step_, cells_.edge(n.side, n.overlap)};
    ctx.send(TaskId{ctx.self().job, n.index}, kHaloTag, encode_portable(halo));
  }
}

void Heat2dTask::sweep(Context& ctx, const std::vector<Neighbour>& adjacent) {
  for (const Neighbour& n : adjacent) {
    cells_.set_halo(n.side, n.overlap, inbox_.take_halo(step_, n.index));
  }
  SweepStats stats;  // a spare task's: the reduction's identity
  if (!cells_.empty()) {
    const Window window = cells_.interior(params_.width, params_.height);
    ctx.compute(static_cast<double>(window.cells()), [&] { stats = cells_.sweep(window); });
  }
  phase_ = Phase::kReducing;
  ctx.contribute(step_, {stats.sum_sq_change, stats.max_abs_change});
}

// This task's part in one applied change; each task takes part in at most one per step.
void Heat2dTask::hand_over(Context& ctx, const Layout& before, const GrainChange& change) {
  const bool split = change.kind == GrainKind::kSplit;
  if (change.task == index_) {
    if (split) {
      send_cells(ctx, change.partner, *layout_.tile(change.partner));
    } else {
      adoption_ = Adoption{change.partner, *before.tile(change.partner)};
    }
  } else if (change.partner == index_) {
    if (split) {
      adoption_ = Adoption{change.task, *layout_.tile(index_)};
    } else {
      send_cells(ctx, change.task, *before.tile(index_));
    }
  }
}

void Heat2dTask::send_cells(Context& ctx, std::uint32_t to, const Rect& part) const {
  const std::vector<double> values = cells_.copy(part);
  const std::span<const double> all(values);
  for (std::size_t offset = 0; offset < all.size(); offset += kMaxPieceValues) {
    const auto piece_values = all.subspan(offset, std::min(kMaxPieceValues, all.size() - offset));
    PieceMessage piece{step_ + 1, offset, {piece_values.begin(), piece_values.end()}};
    ctx.send(TaskId{ctx.self().job, to}, kPieceTag, encode_portable(piece));
  }
}

void Heat2dTask::finish(Context& ctx) {
  phase_ = Phase::kDone;
  ctx.finish(encode_portable(
      TaskResult{cells_.checksum(params_.width), last_reduction_[0], last_reduction_[1]}));
}

void Heat2dTask::fail(Context& ctx, const std::string& reason) {
  phase_ = Phase::kFailed;
  ctx.fail(reason);
}

bool Heat2dTask::settled() const {
  return phase_ == Phase::kIdle || phase_ == Phase::kExchanging || phase_ == Phase::kAdopting;
}

// Checks what does not depend on the layout and keeps the message for progress().
std::string Heat2dTask::accept(Message&& msg) {
  const std::uint32_t from = msg.from.index;
  if (from >= params_.tasks || from == index_) {
    return "refused a message from task " + std::to_string(from) + ", not another of the job's " +
           std::to_string(params_.tasks) + " tasks";
  }
  if (msg.tag == kHaloTag) {
    HaloMessage halo;
    if (Status s = decode_portable(msg.payload, halo); !s) {
      return "refused a malformed halo from task " + std::to_string(from) + ": " + s.message();
    }
    if (std::string why = unreachable("a halo", halo.step, from); !why.empty()) return why;
    if (!inbox_.add_halo(PendingHalo{halo.step, from, std::move(halo.values)})) {
      return "refused a second halo of step " + std::to_string(halo.step) + " from task " +
             std::to_string(from);
    }
    return "";
  }
  if (msg.tag == kPieceTag) {
    PieceMessage piece;
    if (Status s = decode_portable(msg.payload, piece); !s || piece.values.empty()) {
      return "refused a malformed piece from task " + std::to_string(from) + ": " +
             (s ? std::string("no values") : s.message());
    }
    if (std::string why = unreachable("a piece", piece.step, from); !why.empty()) return why;
    inbox_.add_piece(PendingPiece{piece.step, from, piece.offset, std::move(piece.values)});
    return "";
  }
  return "refused a message with tag " + std::to_string(msg.tag) + " from task " +
         std::to_string(from);
}

// A sender is at most one step ahead: it needs this task's contribution to step_ to pass it.
std::string Heat2dTask::unreachable(const char* what, std::uint64_t step,
                                    std::uint32_t from) const {
  const std::uint64_t first = phase_ == Phase::kReducing ? step_ + 1 : step_;
  if (step >= first && step <= step_ + 1) return "";
  return "refused " + std::string(what) + " of step " + std::to_string(step) + " from task " +
         std::to_string(from) + " at step " + std::to_string(step_);
}

}  // namespace drift::heat2d
