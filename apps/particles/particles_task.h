// One particles task: the particles in a contiguous range of cells (cell_range.h). Per step k it
// collides and moves its particles (region_step.h, inside ctx.compute with one work unit per
// particle), sends the ones that left to the left and right neighbour (one MigrantMessage each,
// empty or not), and once both neighbours' step-k migrants are in, adds them (left ones first)
// and contributes progress_values (tally.h) to reduction k. It moves to step k+1 only when
// reduced(k) arrives and shows every particle of the job still there. Migrants of step k+1 may
// arrive before reduced(k); they wait in `pending_`. After the last step it finishes with the
// Tally of its particles. Protocol violations (unknown tag, a sender that is not a neighbour,
// malformed or duplicate migrants, migrants outside our cells, an unexpected reduction) fail
// the job. The initial particles are made in start(), so a task created only to receive a
// migrated state does not make them first. The whole state is in serialize(): fixed-width
// integers and doubles only; the parameters and every particle's cell are checked on load.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/particles/cell_range.h"
#include "apps/particles/migrant_message.h"
#include "apps/particles/particle.h"
#include "apps/particles/particles_params.h"
#include "apps/particles/region_step.h"
#include <drift/task.h>
#include <drift/wire_field.h>

namespace drift::particles {

class ParticlesTask final : public SerializableTask<ParticlesTask> {
 public:
  // params must be valid (parse_params) and index < params.tasks.
  ParticlesTask(const Params& params, std::uint32_t index);

  void start(Context& ctx) override;
  void receive(Context& ctx, Message&& msg) override;
  void reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) override;
  double load() const override;  // particles held

  template <class Archive>
  void serialize(Archive& ar) {
    Params params = params_;
    std::uint32_t index = index_;
    ar(params, index, step_);
    wire_enum<kPhaseMax>(ar, phase_);
    ar(particles_, pending_);
    if constexpr (Archive::is_loading::value) check_loaded(params, index);
  }

 private:
  enum class Phase : std::uint8_t {
    kIdle = 0,        // start() has not run; no particles yet
    kExchanging = 1,  // step_ done and its migrants sent; waiting for the neighbours' migrants
    kReducing = 2,    // contributed step_; waiting for reduced(step_)
    kDone = 3,
    kFailed = 4,
  };
  static constexpr std::uint8_t kPhaseMax = 4;

  struct PendingMigrants {
    std::uint64_t step = 0;
    std::uint64_t from = 0;  // task index of the sender
    std::vector<Particle> particles;
    template <class Archive>
    void serialize(Archive& ar) {
      ar(step, from, particles);
    }
  };

  void begin_step(Context& ctx);
  void send_migrants(Context& ctx, std::uint32_t to, std::vector<Particle> migrants);
  void try_finish_step(Context& ctx);
  std::optional<std::string> refusal(const Message& msg);  // buffers the migrants if none
  std::vector<std::uint64_t> neighbours() const;           // left, then right, where they exist
  bool is_neighbour(std::uint64_t index) const;
  bool in_range(const std::vector<Particle>& particles) const;
  void finish(Context& ctx);
  void fail(Context& ctx, const std::string& reason);
  void check_loaded(const Params& params, std::uint32_t index) const;  // throws WireError

  // From the spec; identical on every node for the same (spec, index).
  Params params_;
  std::uint32_t index_;
  CellRange range_;
  Physics physics_;

  // Serialized state.
  std::uint64_t step_ = 0;
  Phase phase_ = Phase::kIdle;
  std::vector<Particle> particles_;  // all in range_
  std::vector<PendingMigrants> pending_;
};

}  // namespace drift::particles
