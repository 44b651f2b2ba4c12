// One heat2d task: the tile the job's layout (layout.h) gives its index, or none (a spare task).
// Per step k it sends each neighbouring tile the stretch of edge they share (step k values),
// waits for theirs, sweeps its cells, contributes {sum of squared changes, max abs change} to
// reduction k, and moves to step k+1 only when reduced(k) arrives. A spare task contributes the
// identity {0, 0} at once. Messages of step k+1 may arrive before reduced(k); they wait in the
// inbox and are checked against the layout once step k+1 is current.
// regrain(k) applies the root's splits and merges to the layout; a task giving up cells sends
// them (PieceMessage) to the task taking them, which at step k+1 first waits for all of them
// ("adopting"), then carries on as usual. After the last step it finishes with a TaskResult
// (checksum 0 when spare). Protocol violations (unknown tag or sender, malformed, duplicate,
// unreachable or misfitting halo or piece, unexpected reduction or regrain) end the task with an
// empty result, which combine() reports as malformed.
// The whole state is in serialize(), the layout included: a state loads into a task constructed
// from the spec for the same index whatever its tile has become since.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/heat2d/heat2d_params.h"
#include "apps/heat2d/inbox.h"
#include "apps/heat2d/layout.h"
#include "apps/heat2d/tile_cells.h"
#include "apps/heat2d/wire_optional.h"
#include <drift/task.h>
#include <drift/wire_field.h>

namespace drift::heat2d {

class Heat2dTask final : public SerializableTask<Heat2dTask> {
 public:
  // params must be valid (parse_params) and index < params.tasks.
  Heat2dTask(const Params& params, std::uint32_t index);

  void start(Context& ctx) override;
  void receive(Context& ctx, Message&& msg) override;
  void reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) override;
  void regrain(Context& ctx, std::uint64_t step, const std::vector<GrainChange>& changes) override;
  double load() const override;  // cells owned; 0 when spare
  bool can_split() const override;
  std::optional<std::uint32_t> merge_partner() const override;

  template <class Archive>
  void serialize(Archive& ar) {
    std::uint32_t index = index_, width = params_.width, height = params_.height;
    std::uint32_t tasks = params_.tasks, spare = params_.spare;
    std::uint64_t steps = params_.steps;
    ar(index, width, height, tasks, spare, steps, step_);
    wire_enum<kPhaseMax>(ar, phase_);
    wire_bool(ar, regrained_);
    ar(layout_, cells_, inbox_);
    wire_optional(ar, adoption_);
    ar(last_reduction_);
    if constexpr (Archive::is_loading::value) {
      check_loaded(Params{width, height, steps, tasks, spare}, index);
    }
  }

 private:
  enum class Phase : std::uint8_t {
    kIdle = 0,        // start() has not run
    kExchanging = 1,  // edges of step_ sent; waiting for the neighbours' edges of step_
    kReducing = 2,    // swept and contributed step_; waiting for reduced(step_)
    kDone = 3,        // finished with a result
    kFailed = 4,      // finished with an empty result after a protocol violation
    kAdopting = 5,    // at step_, waiting for the cells of adoption_ before sending edges
  };
  static constexpr std::uint8_t kPhaseMax = 5;

  void enter_step(Context& ctx);
  void progress(Context& ctx);
  bool adopt(Context& ctx);
  void send_halos(Context& ctx);
  void sweep(Context& ctx, const std::vector<Neighbour>& adjacent);
  void hand_over(Context& ctx, const Layout& before, const GrainChange& change);
  void send_cells(Context& ctx, std::uint32_t to, const Rect& part) const;
  void finish(Context& ctx);
  void fail(Context& ctx, const std::string& reason);
  bool over() const { return phase_ == Phase::kDone || phase_ == Phase::kFailed; }
  // The layout of step_ is final (no regrain before this step's messages are used).
  bool settled() const;
  std::string accept(Message&& msg);  // empty, or why msg is refused
  std::string unreachable(const char* what, std::uint64_t step, std::uint32_t from) const;
  void check_loaded(const Params& params, std::uint32_t index) const;  // throws WireError
  std::string loaded_problem() const;

  // From the spec; identical on every node for the same (spec, index).
  Params params_;
  std::uint32_t index_;

  // Serialized state.
  std::uint64_t step_ = 0;
  Phase phase_ = Phase::kIdle;
  bool regrained_ = false;  // regrain(step_) has run
  Layout layout_;           // of step_ + 1 once regrained_, else of step_
  TileCells cells_;         // of layout_'s tile for this task
  Inbox inbox_;
  std::optional<Adoption> adoption_;  // cells this task waits for at the start of its next step
  std::vector<double> last_reduction_;
};

}  // namespace drift::heat2d
