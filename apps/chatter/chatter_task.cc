// The chatter task (chatter_task.h).
#include "apps/chatter/chatter_task.h"

#include <chrono>

#include "apps/chatter/chatter_message.h"
#include "apps/chatter/chatter_result.h"
#include "apps/chatter/chatter_schedule.h"
#include "apps/common/busy_work.h"
#include <drift/context.h>

namespace drift::chatter {

namespace {

// A reduced message count, exact below 2^53.
std::string count(double v) { return std::to_string(static_cast<std::uint64_t>(v)); }

}  // namespace

ChatterTask::ChatterTask(const Params& params, std::uint32_t index)
    : params_(params),
      index_(index),
      sent_(params.tasks, 0),
      last_(params.tasks, 0),
      expected_now_(incoming(params, index, 0)) {}

double ChatterTask::load() const { return 1.0 + static_cast<double>(params_.work_us); }

void ChatterTask::start(Context& ctx) {
  if (phase_ == Phase::kIdle) begin_step(ctx);  // after a restore: nothing new
}

void ChatterTask::begin_step(Context& ctx) {
  phase_ = Phase::kExchanging;
  ctx.compute(static_cast<double>(params_.work_us),
              [this] { apps::spin_for(std::chrono::microseconds(params_.work_us)); });
  const TaskId self = ctx.self();
  for (std::uint32_t to : targets(params_, index_, step_)) {
    const std::uint64_t counter = ++sent_[to];
    ctx.send(TaskId{self.job, to}, kChatterTag,
             encode_message(index_, to, counter, step_, params_.payload));
  }
  maybe_contribute(ctx);
}

void ChatterTask::maybe_contribute(Context& ctx) {
  if (phase_ != Phase::kExchanging || received_now_ < expected_now_) return;
  phase_ = Phase::kReducing;
  ctx.contribute(step_, {static_cast<double>(params_.fanout), static_cast<double>(received_now_)});
}

void ChatterTask::receive(Context& ctx, Message&& msg) {
  if (phase_ == Phase::kDone || phase_ == Phase::kFailed) return;
  ChatterMessage m;
  if (!check_message(ctx, msg, m) || !check_channel(ctx, msg.from.index, m)) return;
  accept(msg.from.index, m);
  if (m.step == step_) maybe_contribute(ctx);
}

bool ChatterTask::check_message(Context& ctx, const Message& msg, ChatterMessage& out) {
  const std::uint32_t from = msg.from.index;
  if (msg.tag != kChatterTag) {
    fail(ctx, "message with unknown tag " + std::to_string(msg.tag) + " from task " +
                  std::to_string(from));
  } else if (from >= params_.tasks || from == index_) {
    fail(ctx, "message from task " + std::to_string(from) + ", which cannot send to us");
  } else if (Status s = decode_portable(msg.payload, out); !s) {
    fail(ctx, channel(from) + ": malformed message (" + s.message() + ")");
  } else {
    return true;
  }
  return false;
}

bool ChatterTask::check_channel(Context& ctx, std::uint32_t from, const ChatterMessage& m) {
  const bool early_ok = phase_ == Phase::kReducing && m.step == step_ + 1;
  if (m.counter != last_[from] + 1) {
    fail(ctx, channel(from) + ": counter " + std::to_string(m.counter) + " after " +
                  std::to_string(last_[from]) + " (lost, duplicated or reordered)");
  } else if (m.step != step_ && !early_ok) {
    fail(ctx, channel(from) + ": message " + std::to_string(m.counter) + " of step " +
                  std::to_string(m.step) + " arrived at step " + std::to_string(step_));
  } else if (m.step == step_ && received_now_ >= expected_now_) {
    fail(ctx, channel(from) + ": message " + std::to_string(m.counter) + " is one more than the " +
                  std::to_string(expected_now_) + " scheduled for step " + std::to_string(step_));
  } else if (auto e = filler_error(from, index_, m, params_.payload)) {
    fail(ctx, channel(from) + ": message " + std::to_string(m.counter) + ": " + *e);
  } else {
    return true;
  }
  return false;
}

void ChatterTask::accept(std::uint32_t from, const ChatterMessage& m) {
  last_[from] = m.counter;
  ++(m.step == step_ ? received_now_ : received_next_);
  received_hash_ += message_digest(from, index_, m);
  ++messages_;
  bytes_ += m.filler.size();
}

void ChatterTask::reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) {
  if (phase_ == Phase::kDone || phase_ == Phase::kFailed) return;
  if (phase_ != Phase::kReducing || step != step_ || values.size() != 2) {
    return fail(ctx, "unexpected reduction of step " + std::to_string(step) + " at step " +
                         std::to_string(step_));
  }
  if (values[0] != values[1]) {
    return fail(ctx, "step " + std::to_string(step) + ": " + count(values[0]) +
                         " messages sent in the job but " + count(values[1]) + " received");
  }
  if (step_ + 1 == params_.steps) return finish(ctx);
  ++step_;
  expected_now_ = incoming(params_, index_, step_);
  received_now_ = received_next_;
  received_next_ = 0;
  if (received_now_ > expected_now_) {
    return fail(ctx, "received " + std::to_string(received_now_) + " messages of step " +
                         std::to_string(step_) + ", only " + std::to_string(expected_now_) +
                         " are scheduled");
  }
  begin_step(ctx);
}

void ChatterTask::finish(Context& ctx) {
  phase_ = Phase::kDone;
  const ChatterResult r{receiver_digest(index_, last_, received_hash_), messages_, bytes_};
  ctx.finish(encode_portable(r));
}

void ChatterTask::fail(Context& ctx, const std::string& reason) {
  phase_ = Phase::kFailed;
  ctx.fail(reason);
}

std::string ChatterTask::channel(std::uint32_t from) const {
  return "channel " + std::to_string(from) + "->" + std::to_string(index_);
}

void ChatterTask::check_loaded(const Params& params, std::uint32_t index) const {
  const std::string who = "chatter state of task " + std::to_string(index_);
  if (params != params_ || index != index_) {
    throw WireError(who + ": the state is of task " + std::to_string(index) + " of another job");
  }
  if (sent_.size() != params_.tasks || last_.size() != params_.tasks) {
    throw WireError(who + ": " + std::to_string(last_.size()) + " channels, expected " +
                    std::to_string(params_.tasks));
  }
  if (step_ >= params_.steps || received_now_ > expected_now_) {
    throw WireError(who + ": step " + std::to_string(step_) + " with " +
                    std::to_string(received_now_) + " of " + std::to_string(expected_now_) +
                    " messages is impossible");
  }
}

}  // namespace drift::chatter
