// Checks of a loaded heat2d task state (heat2d_task.h): a state from another task or job, or one
// whose parts do not fit together, is refused with a WireError before the task runs on it.
#include "apps/heat2d/heat2d_task.h"

namespace drift::heat2d {
namespace {

std::string describe(const std::optional<Rect>& tile) { return tile ? to_string(*tile) : "none"; }

}  // namespace

void Heat2dTask::check_loaded(const Params& params, std::uint32_t index) const {
  const auto job = [](const Params& p) {
    return format_size(p.width, p.height) + ", " + std::to_string(p.tasks) + " tasks, " +
           std::to_string(p.spare) + " spare, " + std::to_string(p.steps) + " steps";
  };
  if (index != index_ || !(params == params_)) {
    throw WireError("heat2d state of task " + std::to_string(index) + " (" + job(params) +
                    ") loaded into task " + std::to_string(index_) + " (" + job(params_) + ")");
  }
  if (std::string why = loaded_problem(); !why.empty()) {
    throw WireError("heat2d state of task " + std::to_string(index) + ": " + why);
  }
}

std::string Heat2dTask::loaded_problem() const {
  if (std::string why = layout_.problem(params_.width, params_.height, params_.tasks);
      !why.empty()) {
    return why;
  }
  const std::optional<Rect> tile = layout_.tile(index_);
  if (cells_.rect() != tile.value_or(Rect{})) {
    return "cells of " + to_string(cells_.rect()) + " for the tile " + describe(tile);
  }
  if (step_ > params_.steps) {
    return "step " + std::to_string(step_) + " beyond " + std::to_string(params_.steps);
  }
  if (last_reduction_.size() != (step_ > 0 ? 2u : 0u)) {
    return std::to_string(last_reduction_.size()) + " values of the last reduction at step " +
           std::to_string(step_);
  }
  const bool at_end = step_ == params_.steps;
  bool fits = true;
  switch (phase_) {
    case Phase::kIdle:
      fits = step_ == 0 && !regrained_ && !adoption_;
      break;
    case Phase::kExchanging:
      fits = !at_end && !regrained_ && !adoption_;
      break;
    case Phase::kReducing:
      fits = !at_end && (regrained_ || !adoption_);
      break;
    case Phase::kAdopting:
      fits = !regrained_ && adoption_;
      break;
    case Phase::kDone:
    case Phase::kFailed:
      break;
  }
  if (!fits) {
    return "phase " + std::to_string(static_cast<int>(phase_)) + " at step " +
           std::to_string(step_) + (regrained_ ? " after regrain" : "") +
           (adoption_ ? " adopting" : "");
  }
  if (adoption_ && (adoption_->from >= params_.tasks || adoption_->from == index_ || !tile ||
                    adoption_->rect.cells() == 0 || !tile->contains(adoption_->rect))) {
    return "adopts " + to_string(adoption_->rect) + " from task " +
           std::to_string(adoption_->from) + " into the tile " + describe(tile);
  }
  Inbox seen;  // refuses duplicates as receive() does
  for (const PendingHalo& h : inbox_.halos()) {
    if (std::string why = unreachable("a halo", h.step, h.from); !why.empty()) return why;
    if (h.from >= params_.tasks || h.from == index_ || !seen.add_halo(h)) {
      return "a pending halo of step " + std::to_string(h.step) + " from task " +
             std::to_string(h.from) + " is not one this task accepts";
    }
  }
  for (const PendingPiece& p : inbox_.pieces()) {
    if (std::string why = unreachable("a piece", p.step, p.from); !why.empty()) return why;
    if (p.from >= params_.tasks || p.from == index_ || p.values.empty()) {
      return "a pending piece of step " + std::to_string(p.step) + " from task " +
             std::to_string(p.from) + " is not one this task accepts";
    }
  }
  if (settled()) {
    if (std::string why = inbox_.check(step_, layout_.adjacent(index_), adoption_); !why.empty()) {
      return why;
    }
  }
  return "";
}

}  // namespace drift::heat2d
