// One ballast task: a big state for migration benchmarks. Per step it does `work` microseconds
// of busy computation, rewrites a few words of its state (ballast_state.h), contributes {1}, and
// moves on at reduced(); after the last step it finishes with a digest of its whole state. The
// words are made in start(), not in the constructor, so a task created only to receive a
// migrated state does not first fill (and then throw away) a big vector. Tasks never message
// each other; a message fails the job. The whole state is in serialize(): a vector of uint64 is
// one binary block in the portable archive on little-endian hosts, so it saves and loads at
// memcpy speed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/ballast/ballast_params.h"
#include <drift/task.h>
#include <drift/wire_field.h>

namespace drift::ballast {

class BallastTask final : public SerializableTask<BallastTask> {
 public:
  // params must be valid (parse_params) and index < params.tasks.
  BallastTask(const Params& params, std::uint32_t index) : params_(params), index_(index) {}

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
    ar(words_);
    if constexpr (Archive::is_loading::value) check_loaded(params, index);
  }

 private:
  enum class Phase : std::uint8_t {
    kIdle = 0,      // start() has not run; no words yet
    kReducing = 1,  // step_ done and contributed; waiting for reduced(step_)
    kDone = 2,
    kFailed = 3,
  };
  static constexpr std::uint8_t kPhaseMax = 3;

  void do_step(Context& ctx);
  void fail(Context& ctx, const std::string& reason);
  void check_loaded(const Params& params, std::uint32_t index) const;  // throws WireError

  Params params_;
  std::uint32_t index_;

  std::uint64_t step_ = 0;
  Phase phase_ = Phase::kIdle;
  std::vector<std::uint64_t> words_;
};

}  // namespace drift::ballast
