// The Task API (docs/architecture.md §6): a task is an event-driven, migratable piece of a job. It reacts to
// messages, never blocks, and between two handlers its whole state can be serialized. Handlers of
// one task never run concurrently (actor style); different tasks may run on different workers.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <drift/archives.h>
#include <drift/types.h>

namespace drift {

class Context;

// One application message delivered to a task, in channel order.
struct Message {
  TaskId from;
  std::uint32_t tag = 0;
  std::vector<std::uint8_t> payload;
};

class Task {
 public:
  virtual ~Task() = default;

  // After creation, and again after every restore (a rollback) or migration: keep a flag in the
  // state to tell a first start from a later one.
  virtual void start(Context& ctx) = 0;
  // One message from another task of the same job.
  virtual void receive(Context& ctx, Message&& msg) = 0;
  // The combined values of an SPMD reduction this task contributed to with ctx.contribute().
  virtual void reduced(Context& ctx, std::uint64_t step, const std::vector<double>& values) = 0;
  // Abstract, machine-independent load (cells, particles, ...).
  virtual double load() const = 0;

  // Granularity (docs/architecture.md §8). Read by the runtime after every handler, like load(). A task
  // that could hand half its work to a spare task of the job:
  virtual bool can_split() const { return false; }
  // A task of the job this one could absorb whole, if both sat on one node; nullopt: none.
  virtual std::optional<std::uint32_t> merge_partner() const { return std::nullopt; }
  // The root's changes of the job's decomposition after `step`: called on every task of the
  // job with the same list, just before reduced(step) (and not again when a rollback resends
  // that reduction). A change the application cannot apply is ignored by every task alike,
  // decided from what all of them know. Spare tasks (Application::spare_tasks) get them too.
  virtual void regrain(Context& /*ctx*/, std::uint64_t /*step*/,
                       const std::vector<GrainChange>& /*changes*/) {}

  // Whole task state, endian- and word-size-neutral (protocol/archives.h).
  virtual void save_state(PortableOutputArchive& ar) const = 0;
  virtual void load_state(BoundedInputArchive& ar) = 0;
};

// Implements save_state/load_state from the derived class's Cereal `serialize` template.
template <class Derived>
class SerializableTask : public Task {
 public:
  void save_state(PortableOutputArchive& ar) const override {
    ar(const_cast<Derived&>(static_cast<const Derived&>(*this)));
  }
  void load_state(BoundedInputArchive& ar) override { ar(static_cast<Derived&>(*this)); }
};

}  // namespace drift
