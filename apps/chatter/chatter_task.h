// One chatter task. Per step k it does `work` microseconds of busy computation, sends `fanout`
// numbered messages (chatter_schedule.h, chatter_message.h), and checks every message it
// receives: the channel counter must be exactly the last one + 1, the filler must match, the
// step must be k (or k+1 once it has contributed k). Any violation ends the job through
// ctx.fail naming the channel, e.g. "channel 3->5: counter 7 after 5 (lost, duplicated or
// reordered)". When it has sent its step-k messages and received all step-k messages addressed
// to it, it contributes {sent, received}; it moves to k+1 on reduced(k), which must show as many
// messages received as sent in the whole job. After the last step it finishes with a
// ChatterResult. Messages of step k+1 that arrive before reduced(k) are counted towards k+1.
// The whole state is in serialize(); the parameters are checked on load.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/chatter/chatter_message.h"
#include "apps/chatter/chatter_params.h"
#include <drift/task.h>
#include <drift/wire_field.h>

namespace drift::chatter {

class ChatterTask final : public SerializableTask<ChatterTask> {
 public:
  // params must be valid (parse_params) and index < params.tasks.
  ChatterTask(const Params& params, std::uint32_t index);

  void start(Context& ctx) override;
  void receive(Context& ctx, Message&& msg) override;
  void reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) override;
  double load() const override;  // 1 + work microseconds per step

  template <class Archive>
  void serialize(Archive& ar) {
    Params params = params_;
    std::uint32_t index = index_;
    ar(params, index, step_);
    wire_enum<kPhaseMax>(ar, phase_);
    ar(sent_, last_, expected_now_, received_now_, received_next_, received_hash_, messages_,
       bytes_);
    if constexpr (Archive::is_loading::value) check_loaded(params, index);
  }

 private:
  enum class Phase : std::uint8_t {
    kIdle = 0,        // start() has not run
    kExchanging = 1,  // step_'s messages sent; waiting for the rest of step_'s incoming ones
    kReducing = 2,    // contributed step_; waiting for reduced(step_)
    kDone = 3,
    kFailed = 4,
  };
  static constexpr std::uint8_t kPhaseMax = 4;

  void begin_step(Context& ctx);
  void maybe_contribute(Context& ctx);
  bool check_message(Context& ctx, const Message& msg, ChatterMessage& out);
  bool check_channel(Context& ctx, std::uint32_t from, const ChatterMessage& m);
  void accept(std::uint32_t from, const ChatterMessage& m);
  void finish(Context& ctx);
  void fail(Context& ctx, const std::string& reason);
  std::string channel(std::uint32_t from) const;
  void check_loaded(const Params& params, std::uint32_t index) const;  // throws WireError

  Params params_;
  std::uint32_t index_;

  std::uint64_t step_ = 0;
  Phase phase_ = Phase::kIdle;
  std::vector<std::uint64_t> sent_;  // last counter sent, per receiver
  std::vector<std::uint64_t> last_;  // last counter received, per sender
  std::uint64_t expected_now_ = 0;   // messages addressed to us in step_
  std::uint64_t received_now_ = 0;   // ... of which received
  std::uint64_t received_next_ = 0;  // step_ + 1 messages received early
  std::uint64_t received_hash_ = 0;  // wrapping sum of message_digest
  std::uint64_t messages_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace drift::chatter
