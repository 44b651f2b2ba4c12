// One segment of the string. Step s: once both halos of step s are here (a neighbour's value
// after s steps; none at a fixed end) the segment advances, and the task contributes its energy
// and largest displacement to step s. When the root's combined values of step s come back
// (reduced), the task sends its new edge values to its neighbours as the halos of step s + 1 —
// so a task restored from a checkpoint taken just before a reduction sends them again — or,
// after the last step, finishes with its segment.
#pragma once

#include <cereal/types/map.hpp>
#include <cereal/types/vector.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "wave.h"

namespace wave {

class WaveTask final : public drift::SerializableTask<WaveTask> {
 public:
  WaveTask(const Params& p, std::uint32_t tasks, std::uint32_t index, std::uint64_t steps);

  void start(drift::Context& ctx) override;
  void receive(drift::Context& ctx, drift::Message&& msg) override;
  void reduced(drift::Context& ctx, std::uint64_t step, const std::vector<double>& values) override;
  double load() const override { return static_cast<double>(u_.size()); }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(params_, tasks_, index_, steps_, first_, u_, prev_, step_, halos_);
    ar(started_, computed_);
  }

 private:
  static constexpr std::uint32_t kHaloTag = 1;
  enum Side : std::uint32_t { kLeft = 0, kRight = 1 };

  void send_halos(drift::Context& ctx);
  void try_advance(drift::Context& ctx);

  Params params_;
  std::uint32_t tasks_ = 0;
  std::uint32_t index_ = 0;
  std::uint64_t steps_ = 0;
  std::uint64_t first_ = 0;  // global index of u_[0]
  std::vector<double> u_, prev_;
  std::uint64_t step_ = 0;   // the step to compute next
  std::map<std::uint64_t, std::array<double, 2>> halos_;  // by step: left, right
  bool started_ = false;
  bool computed_ = false;    // step_ is computed and contributed; waiting for reduced(step_)
};

}  // namespace wave
