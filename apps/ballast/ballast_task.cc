// The ballast task (ballast_task.h).
#include "apps/ballast/ballast_task.h"

#include <chrono>

#include "apps/ballast/ballast_result.h"
#include "apps/ballast/ballast_state.h"
#include "apps/common/busy_work.h"
#include <drift/context.h>

namespace drift::ballast {

double BallastTask::load() const { return 1.0 + static_cast<double>(params_.work_us); }

void BallastTask::start(Context& ctx) {
  if (phase_ != Phase::kIdle) return;  // after a restore: nothing new
  words_ = initial_words(index_, params_.words());
  do_step(ctx);
}

void BallastTask::do_step(Context& ctx) {
  ctx.compute(static_cast<double>(params_.work_us),
              [this] { apps::spin_for(std::chrono::microseconds(params_.work_us)); });
  apply_step(words_, index_, step_);
  phase_ = Phase::kReducing;
  ctx.contribute(step_, {1.0});
}

void BallastTask::receive(Context& ctx, Message&& msg) {
  if (phase_ == Phase::kDone || phase_ == Phase::kFailed) return;
  fail(ctx,
       "ballast tasks exchange no messages, got one from task " + std::to_string(msg.from.index));
}

void BallastTask::reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) {
  if (phase_ == Phase::kDone || phase_ == Phase::kFailed) return;
  if (phase_ != Phase::kReducing || step != step_ || values.size() != 1 ||
      values[0] != static_cast<double>(params_.tasks)) {
    return fail(ctx, "unexpected reduction of step " + std::to_string(step) + " at step " +
                         std::to_string(step_));
  }
  if (step_ + 1 < params_.steps) {
    ++step_;
    return do_step(ctx);
  }
  phase_ = Phase::kDone;
  ctx.finish(encode_portable(BallastResult{words_digest(index_, words_), words_.size() * 8}));
}

void BallastTask::fail(Context& ctx, const std::string& reason) {
  phase_ = Phase::kFailed;
  ctx.fail(reason);
}

void BallastTask::check_loaded(const Params& params, std::uint32_t index) const {
  const std::string who = "ballast state of task " + std::to_string(index_);
  if (params != params_ || index != index_) {
    throw WireError(who + ": the state is of task " + std::to_string(index) + " of another job");
  }
  const std::uint64_t expected = phase_ == Phase::kIdle ? 0 : params_.words();
  if (words_.size() != expected || step_ >= params_.steps) {
    throw WireError(who + ": " + std::to_string(words_.size()) + " words at step " +
                    std::to_string(step_) + ", expected " + std::to_string(expected));
  }
}

}  // namespace drift::ballast
