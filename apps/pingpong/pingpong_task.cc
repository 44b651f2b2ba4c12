// The pingpong task (pingpong_task.h).
#include "apps/pingpong/pingpong_task.h"

#include <chrono>

#include "apps/common/digest.h"
#include "apps/pingpong/pingpong_payload.h"
#include "apps/pingpong/pingpong_result.h"
#include <drift/context.h>

namespace drift::pingpong {

namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void PingpongTask::start(Context& ctx) {
  if (phase_ != Phase::kIdle) return;  // after a restore: nothing new
  phase_ = Phase::kRunning;
  if (index_ != 0) return;
  std::vector<std::uint8_t> payload = make_payload(params_.bytes);
  start_ns_ = now_ns();
  ctx.send(TaskId{ctx.self().job, 1}, kPingTag, std::move(payload));
}

void PingpongTask::receive(Context& ctx, Message&& msg) {
  if (phase_ == Phase::kDone || phase_ == Phase::kFailed || !check(ctx, msg)) return;
  if (index_ == 0) return on_echo(ctx, std::move(msg));
  on_ping(ctx, std::move(msg));
}

bool PingpongTask::check(Context& ctx, const Message& msg) {
  const std::uint64_t round = round_of(msg.payload);
  if (msg.tag != kPingTag || msg.from.index != 1 - index_) {
    fail(ctx, "unexpected message (tag " + std::to_string(msg.tag) + ") from task " +
                  std::to_string(msg.from.index));
  } else if (msg.payload.size() != params_.bytes) {
    fail(ctx, "payload of " + std::to_string(msg.payload.size()) + " bytes, expected " +
                  std::to_string(params_.bytes));
  } else if (round != rounds_ + 1 || phase_ == Phase::kReducing) {
    fail(ctx, "round " + std::to_string(round) + " after " + std::to_string(rounds_) +
                  " (lost, duplicated or reordered)");
  } else {
    return true;
  }
  return false;
}

void PingpongTask::on_echo(Context& ctx, Message&& msg) {
  if (++rounds_ < params_.rounds) {
    stamp_round(msg.payload, rounds_ + 1);
    return ctx.send(msg.from, kPingTag, std::move(msg.payload));
  }
  elapsed_ns_ = static_cast<std::uint64_t>(now_ns() - start_ns_);
  payload_hash_ = apps::Digest().add_bytes(msg.payload).value();
  contribute(ctx);
}

void PingpongTask::on_ping(Context& ctx, Message&& msg) {
  ++rounds_;
  ctx.send(msg.from, kPingTag, std::move(msg.payload));
  if (rounds_ == params_.rounds) contribute(ctx);
}

void PingpongTask::contribute(Context& ctx) {
  phase_ = Phase::kReducing;
  ctx.contribute(0, {1.0});
}

void PingpongTask::reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) {
  if (phase_ == Phase::kDone || phase_ == Phase::kFailed) return;
  if (phase_ != Phase::kReducing || step != 0 || values != std::vector<double>{2.0}) {
    return fail(ctx, "unexpected reduction of step " + std::to_string(step));
  }
  phase_ = Phase::kDone;
  ctx.finish(encode_portable(PingpongResult{rounds_, elapsed_ns_, payload_hash_}));
}

void PingpongTask::fail(Context& ctx, const std::string& reason) {
  phase_ = Phase::kFailed;
  ctx.fail(reason);
}

void PingpongTask::check_loaded(const Params& params, std::uint32_t index) const {
  if (params != params_ || index != index_ || rounds_ > params_.rounds) {
    throw WireError("pingpong state of task " + std::to_string(index_) + ": the state is of task " +
                    std::to_string(index) + " of another job");
  }
}

}  // namespace drift::pingpong
