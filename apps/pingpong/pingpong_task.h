// One pingpong task. Task 0 stamps round 1 into the payload, notes the time and sends it to
// task 1; task 1 echoes every payload back unchanged; task 0 checks the round, stamps the next
// one and sends again, until `rounds` echoes have come back, then notes the time. Both then
// contribute {1} to step 0 and finish on reduced(0). Payloads travel by move, never copied by
// the task. A wrong sender, tag, size or round fails the job. The timestamps are steady_clock
// readings of the node running the handler, so the elapsed time means something only if task 0
// stays on one node (or the nodes share a clock, as on one machine).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/pingpong/pingpong_params.h"
#include <drift/task.h>
#include <drift/wire_field.h>

namespace drift::pingpong {

class PingpongTask final : public SerializableTask<PingpongTask> {
 public:
  // params must be valid (parse_params) and index < 2.
  PingpongTask(const Params& params, std::uint32_t index) : params_(params), index_(index) {}

  void start(Context& ctx) override;
  void receive(Context& ctx, Message&& msg) override;
  void reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) override;
  double load() const override { return 1.0; }

  template <class Archive>
  void serialize(Archive& ar) {
    Params params = params_;
    std::uint32_t index = index_;
    ar(params, index, rounds_, start_ns_, elapsed_ns_, payload_hash_);
    wire_enum<kPhaseMax>(ar, phase_);
    if constexpr (Archive::is_loading::value) check_loaded(params, index);
  }

 private:
  enum class Phase : std::uint8_t {
    kIdle = 0,      // start() has not run
    kRunning = 1,   // rounds in flight
    kReducing = 2,  // all rounds done and contributed; waiting for reduced(0)
    kDone = 3,
    kFailed = 4,
  };
  static constexpr std::uint8_t kPhaseMax = 4;

  bool check(Context& ctx, const Message& msg);
  void on_echo(Context& ctx, Message&& msg);
  void on_ping(Context& ctx, Message&& msg);
  void contribute(Context& ctx);
  void fail(Context& ctx, const std::string& reason);
  void check_loaded(const Params& params, std::uint32_t index) const;  // throws WireError

  Params params_;
  std::uint32_t index_;

  std::uint64_t rounds_ = 0;      // echoes received (task 0) or sent (task 1)
  std::int64_t start_ns_ = 0;     // task 0: steady_clock at the first send
  std::uint64_t elapsed_ns_ = 0;  // task 0: first send to last echo
  std::uint64_t payload_hash_ = 0;
  Phase phase_ = Phase::kIdle;
};

}  // namespace drift::pingpong
