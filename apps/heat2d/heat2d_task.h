// One heat2d task: a tile of the grid plus a one-cell halo ring. Per step k it sends its edges
// (step k values) to its neighbours, waits for theirs, sweeps its cells, contributes
// {sum of squared changes, max abs change} to reduction k, and moves to step k+1 only when
// reduced(k) arrives. Halos for step k+1 may arrive before reduced(k); they wait in `pending_`.
// After the last step it finishes with a TaskResult. Protocol violations (unknown tag, sender
// that is not a neighbour, malformed or duplicate halo, unexpected reduction) end the task with
// an empty result, which combine() reports as malformed.
// The whole state is in serialize(); geometry comes from the spec and is checked on load.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/heat2d/heat2d_params.h"
#include "apps/heat2d/jacobi_kernel.h"
#include "apps/heat2d/tiling.h"
#include "node/task.h"
#include "protocol/wire_field.h"

namespace drift::heat2d {

class Heat2dTask final : public SerializableTask<Heat2dTask> {
 public:
  // params must be valid (parse_params) and index < params.tasks.
  Heat2dTask(const Params& params, std::uint32_t index);

  void start(Context& ctx) override;
  void receive(Context& ctx, Message&& msg) override;
  void reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) override;
  double load() const override;  // cells owned

  template <class Archive>
  void serialize(Archive& ar) {
    std::uint32_t index = index_, width = params_.width, height = params_.height;
    std::uint32_t tasks = params_.tasks;
    std::uint64_t steps = params_.steps;
    ar(index, width, height, tasks, steps, step_);
    wire_enum<kPhaseMax>(ar, phase_);
    ar(cells_, pending_, last_reduction_);
    if constexpr (Archive::is_loading::value) {
      check_loaded(Params{width, height, steps, tasks}, index);
    }
  }

 private:
  enum class Phase : std::uint8_t {
    kIdle = 0,        // start() has not run
    kExchanging = 1,  // edges of step_ sent; waiting for the neighbours' edges of step_
    kReducing = 2,    // swept and contributed step_; waiting for reduced(step_)
    kDone = 3,        // finished with a result
    kFailed = 4,      // finished with an empty result after a protocol violation
  };
  static constexpr std::uint8_t kPhaseMax = 4;

  struct PendingHalo {
    std::uint64_t step = 0;
    std::uint8_t side = 0;
    std::vector<double> values;
    template <class Archive>
    void serialize(Archive& ar) {
      ar(step, side, values);
    }
  };

  void send_halos(Context& ctx);
  void try_sweep(Context& ctx);
  void fail(Context& ctx, const std::string& reason);
  bool accept_halo(const Message& msg);
  std::size_t side_length(Side s) const;
  std::size_t neighbour_count() const;
  std::vector<double> edge(Side s) const;
  void install(Side s, const std::vector<double>& values);
  Window owned_window() const;     // local coordinates
  Window interior_window() const;  // owned cells that are not on the grid's fixed boundary
  std::uint64_t partial_checksum() const;
  void check_loaded(const Params& params, std::uint32_t index) const;  // throws WireError

  // From the spec; identical on every node for the same (spec, index).
  Params params_;
  std::uint32_t index_;
  Tile tile_;
  std::size_t stride_;  // tile columns + 2

  // Serialized state.
  std::uint64_t step_ = 0;
  Phase phase_ = Phase::kIdle;
  std::vector<double> cells_;  // (rows + 2) x stride_, row-major, halo ring included
  std::vector<PendingHalo> pending_;
  std::vector<double> last_reduction_;

  std::vector<double> scratch_;  // the sweep's output buffer; not state
};

}  // namespace drift::heat2d
