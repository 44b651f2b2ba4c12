// The particles task (particles_task.h).
#include "apps/particles/particles_task.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "apps/particles/initial_state.h"
#include "apps/particles/tally.h"
#include <drift/context.h>

namespace drift::particles {

namespace {

// A reduced particle count: exact below 2^53, and shown whatever it is.
std::string format_count(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

ParticlesTask::ParticlesTask(const Params& params, std::uint32_t index)
    : params_(params),
      index_(index),
      range_(cell_range(params.cells, params.tasks, index)),
      physics_(physics_of(params)) {}

double ParticlesTask::load() const { return static_cast<double>(particles_.size()); }

void ParticlesTask::start(Context& ctx) {
  if (phase_ != Phase::kIdle) return try_finish_step(ctx);  // after a restore
  particles_ = initial_particles(params_, range_);
  begin_step(ctx);
}

void ParticlesTask::begin_step(Context& ctx) {
  Leavers out;
  ctx.compute(static_cast<double>(particles_.size()),
              [&] { out = advance_region(particles_, range_, physics_, step_); });
  phase_ = Phase::kExchanging;
  if (index_ > 0) send_migrants(ctx, index_ - 1, std::move(out.left));
  if (index_ + 1 < params_.tasks) send_migrants(ctx, index_ + 1, std::move(out.right));
  try_finish_step(ctx);
}

void ParticlesTask::send_migrants(Context& ctx, std::uint32_t to, std::vector<Particle> migrants) {
  ctx.send(TaskId{ctx.self().job, to}, kMigrantsTag,
           encode_portable(MigrantMessage{step_, std::move(migrants)}));
}

// Ends step_ once every neighbour's migrants of step_ are here.
void ParticlesTask::try_finish_step(Context& ctx) {
  if (phase_ != Phase::kExchanging) return;
  const auto arrived = [&](std::uint64_t from) {
    return std::find_if(pending_.begin(), pending_.end(), [&](const PendingMigrants& m) {
      return m.step == step_ && m.from == from;
    });
  };
  const std::vector<std::uint64_t> from = neighbours();
  if (!std::all_of(from.begin(), from.end(),
                   [&](std::uint64_t n) { return arrived(n) != pending_.end(); })) {
    return;
  }
  for (const std::uint64_t n : from) {  // left first: the state does not depend on arrival order
    const auto it = arrived(n);
    particles_.insert(particles_.end(), it->particles.begin(), it->particles.end());
    pending_.erase(it);
  }
  phase_ = Phase::kReducing;
  ctx.contribute(step_, progress_values(particles_));
}

void ParticlesTask::receive(Context& ctx, Message&& msg) {
  if (phase_ == Phase::kDone || phase_ == Phase::kFailed) return;
  if (auto why = refusal(msg)) {
    return fail(ctx, "refused a message with tag " + std::to_string(msg.tag) + " from task " +
                         std::to_string(msg.from.index) + ": " + *why);
  }
  try_finish_step(ctx);
}

std::optional<std::string> ParticlesTask::refusal(const Message& msg) {
  if (msg.tag != kMigrantsTag) return "unknown tag";
  if (!is_neighbour(msg.from.index)) return "not a neighbour";
  MigrantMessage m;
  if (Status s = decode_portable(msg.payload, m); !s) return "malformed (" + s.message() + ")";
  // A neighbour is at most one step ahead: it needs our contribution to step_ to pass it.
  const std::uint64_t first = phase_ == Phase::kReducing ? step_ + 1 : step_;
  if (m.step < first || m.step > step_ + 1) {
    return "migrants of step " + std::to_string(m.step) + " at step " + std::to_string(step_);
  }
  for (const PendingMigrants& p : pending_) {
    if (p.step == m.step && p.from == msg.from.index) {
      return "second message of step " + std::to_string(m.step);
    }
  }
  if (!in_range(m.particles)) return "migrants outside our cells";
  pending_.push_back(PendingMigrants{m.step, msg.from.index, std::move(m.particles)});
  return std::nullopt;
}

std::vector<std::uint64_t> ParticlesTask::neighbours() const {
  std::vector<std::uint64_t> out;
  if (index_ > 0) out.push_back(index_ - 1);
  if (index_ + 1 < params_.tasks) out.push_back(index_ + 1);
  return out;
}

bool ParticlesTask::is_neighbour(std::uint64_t index) const {
  const std::vector<std::uint64_t> n = neighbours();
  return std::find(n.begin(), n.end(), index) != n.end();
}

bool ParticlesTask::in_range(const std::vector<Particle>& particles) const {
  const auto length = static_cast<double>(params_.cells);
  return std::all_of(particles.begin(), particles.end(), [&](const Particle& p) {
    return p.x >= 0 && p.x <= length && range_.contains(cell_of(p.x, params_.cells));
  });
}

void ParticlesTask::reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) {
  if (phase_ == Phase::kDone || phase_ == Phase::kFailed) return;
  if (phase_ != Phase::kReducing || step != step_ || values.size() != kReducedValues) {
    return fail(ctx, "unexpected reduction of step " + std::to_string(step) + " at step " +
                         std::to_string(step_));
  }
  if (values[0] != static_cast<double>(params_.particles)) {
    return fail(ctx, "step " + std::to_string(step) + ": " + format_count(values[0]) +
                         " particles in the box, expected " + std::to_string(params_.particles) +
                         " (lost or duplicated)");
  }
  if (++step_ == params_.steps) return finish(ctx);
  begin_step(ctx);
}

void ParticlesTask::finish(Context& ctx) {
  phase_ = Phase::kDone;
  ctx.finish(encode_portable(tally(particles_)));
}

void ParticlesTask::fail(Context& ctx, const std::string& reason) {
  phase_ = Phase::kFailed;
  ctx.fail(reason);
}

void ParticlesTask::check_loaded(const Params& params, std::uint32_t index) const {
  const std::string who = "particles state of task " + std::to_string(index_);
  if (params != params_ || index != index_) {
    throw WireError(who + ": the state is of task " + std::to_string(index) + " of another job");
  }
  if (step_ > params_.steps || (phase_ == Phase::kIdle && (step_ != 0 || !particles_.empty()))) {
    throw WireError(who + ": step " + std::to_string(step_) + " is impossible");
  }
  if (particles_.size() > params_.particles || !in_range(particles_)) {
    throw WireError(who + ": particles outside its cells");
  }
  for (const PendingMigrants& m : pending_) {
    if (!is_neighbour(m.from) || m.step < step_ || m.step > step_ + 1 || !in_range(m.particles)) {
      throw WireError(who + ": bad pending migrants from task " + std::to_string(m.from));
    }
  }
}

}  // namespace drift::particles
