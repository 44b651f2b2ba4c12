// A job run with changes of its decomposition, in one thread (grain_driver.h).
#include "tests/apps/grain_driver.h"

#include <algorithm>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "node/context.h"
#include "tests/support/inprocess_runner.h"
#include "tests/support/task_state.h"

namespace drift::test_support {
namespace {

std::string task_name(std::uint32_t index) { return "task " + std::to_string(index); }

class GrainRun;

class DriverContext final : public Context {
 public:
  DriverContext(GrainRun& run, std::uint32_t index) : run_(run), index_(index) {}
  TaskId self() const override;
  const JobSpec& job() const override;
  void send(TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload) override;
  void contribute(std::uint64_t step, std::vector<double> values) override;
  void compute(double, const std::function<void()>& fn) override { fn(); }
  void finish(std::vector<std::uint8_t> result) override;
  void fail(std::string reason) override;

 private:
  GrainRun& run_;
  std::uint32_t index_;
};

class GrainRun {
 public:
  GrainRun(const Application& app, JobSpec spec, const GrainPlanner& planner,
           const GrainRunOptions& options)
      : app_(app),
        spec_(std::move(spec)),
        planner_(planner),
        options_(options),
        rng_(options.seed) {}

  Result<JobOutcome> execute();
  const GrainRunStats& stats() const { return stats_; }

  // DriverContext's effects, applied at once; nothing is delivered before the handler returns.
  TaskId id(std::uint32_t index) const { return TaskId{kJob, index}; }
  const JobSpec& spec() const { return spec_; }
  void send(std::uint32_t from, TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload);
  void contribute(std::uint32_t from, std::uint64_t step, std::vector<double> values);
  void finish(std::uint32_t from, std::vector<std::uint8_t> result);
  void fail(std::string message) {
    if (failure_.is_ok()) failure_ = Status::error(std::move(message));
  }

 private:
  static constexpr std::uint64_t kJob = 1;

  struct Announcement {  // one step's reduction as one task gets it
    std::uint64_t step = 0;
    std::vector<double> values;
    std::vector<GrainChange> changes;
    bool regrained = false;
  };
  struct Slot {
    std::unique_ptr<Task> task;
    bool started = false;
    bool finished = false;
    std::vector<std::uint8_t> result;
    std::deque<Announcement> announcements;
  };
  enum class Kind { kStart, kMessage, kRegrain, kReduced };
  struct Event {
    Kind kind;
    std::uint32_t task;
    std::pair<std::uint32_t, std::uint32_t> channel;  // kMessage only
  };

  std::vector<Event> deliverable() const;
  void deliver(const Event& e);
  void handler(std::uint32_t index, const std::function<void(Task&, Context&)>& fn);
  void announce(std::uint64_t step, std::vector<double> values);
  void migrate_one();
  bool all_finished() const {
    return std::all_of(slots_.begin(), slots_.end(), [](const Slot& s) { return s.finished; });
  }

  const Application& app_;
  JobSpec spec_;
  const GrainPlanner& planner_;
  GrainRunOptions options_;
  std::mt19937_64 rng_;
  std::vector<Slot> slots_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::deque<Message>> channels_;
  std::map<std::uint64_t, std::vector<std::optional<std::vector<double>>>> contributions_;
  Status failure_ = Status::ok();
  GrainRunStats stats_;
};

TaskId DriverContext::self() const { return run_.id(index_); }
const JobSpec& DriverContext::job() const { return run_.spec(); }
void DriverContext::send(TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload) {
  run_.send(index_, to, tag, std::move(payload));
}
void DriverContext::contribute(std::uint64_t step, std::vector<double> values) {
  run_.contribute(index_, step, std::move(values));
}
void DriverContext::finish(std::vector<std::uint8_t> result) {
  run_.finish(index_, std::move(result));
}
void DriverContext::fail(std::string reason) { run_.fail(task_name(index_) + ": " + reason); }

Result<JobOutcome> GrainRun::execute() {
  if (Status s = app_.validate(spec_); !s) return s;
  slots_.resize(spec_.tasks);
  for (std::uint32_t i = 0; i < spec_.tasks; ++i) {
    slots_[i].task = app_.create_task(spec_, i);
    if (!slots_[i].task) return Status::error("create_task returned no task for " + task_name(i));
  }
  while (!all_finished() && failure_.is_ok()) {
    if (stats_.handlers >= options_.max_handlers) {
      return Status::error("more than " + std::to_string(options_.max_handlers) + " handlers");
    }
    const std::vector<Event> events = deliverable();
    if (events.empty()) return Status::error("deadlock: nothing to deliver");
    deliver(events[rng_() % events.size()]);
    const double draw = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    if (failure_.is_ok() && draw < options_.migrate_probability) migrate_one();
  }
  if (!failure_.is_ok()) return failure_;
  std::vector<std::vector<std::uint8_t>> results;
  for (Slot& s : slots_) results.push_back(std::move(s.result));
  return app_.combine(spec_, results);
}

std::vector<GrainRun::Event> GrainRun::deliverable() const {
  std::vector<Event> events;
  for (std::uint32_t i = 0; i < slots_.size(); ++i) {
    const Slot& s = slots_[i];
    if (s.finished) continue;
    if (!s.started) {
      events.push_back({Kind::kStart, i, {}});
    } else if (!s.announcements.empty()) {
      events.push_back(
          {s.announcements.front().regrained ? Kind::kReduced : Kind::kRegrain, i, {}});
    }
  }
  for (const auto& [channel, queue] : channels_) {
    if (slots_[channel.second].started) events.push_back({Kind::kMessage, channel.second, channel});
  }
  return events;
}

void GrainRun::deliver(const Event& e) {
  Slot& slot = slots_[e.task];
  switch (e.kind) {
    case Kind::kStart:
      slot.started = true;
      return handler(e.task, [](Task& t, Context& ctx) { t.start(ctx); });
    case Kind::kMessage: {
      auto it = channels_.find(e.channel);
      Message msg = std::move(it->second.front());
      it->second.pop_front();
      if (it->second.empty()) channels_.erase(it);
      return handler(e.task, [&msg](Task& t, Context& ctx) { t.receive(ctx, std::move(msg)); });
    }
    case Kind::kRegrain: {
      Announcement& a = slot.announcements.front();
      a.regrained = true;
      const Announcement copy = a;  // the handler may finish the task and clear the queue
      return handler(e.task,
                     [&copy](Task& t, Context& ctx) { t.regrain(ctx, copy.step, copy.changes); });
    }
    case Kind::kReduced: {
      const Announcement a = std::move(slot.announcements.front());
      slot.announcements.pop_front();
      return handler(e.task, [&a](Task& t, Context& ctx) { t.reduced(ctx, a.step, a.values); });
    }
  }
}

void GrainRun::handler(std::uint32_t index, const std::function<void(Task&, Context&)>& fn) {
  Slot& slot = slots_[index];
  DriverContext ctx(*this, index);
  ++stats_.handlers;
  try {
    fn(*slot.task, ctx);
    // What the runtime reads after every handler.
    (void)slot.task->load();
    (void)slot.task->can_split();
    (void)slot.task->merge_partner();
  } catch (const std::exception& e) {
    fail(task_name(index) + " threw: " + e.what());
  }
}

void GrainRun::send(std::uint32_t from, TaskId to, std::uint32_t tag,
                    std::vector<std::uint8_t> payload) {
  if (to.job != kJob || to.index >= slots_.size()) {
    return fail(task_name(from) + " sent to an unknown task " + std::to_string(to.index));
  }
  ++stats_.messages[tag];
  stats_.max_payload[tag] = std::max(stats_.max_payload[tag], payload.size());
  if (slots_[to.index].finished) return;  // a finished task's mail is dropped
  channels_[{from, to.index}].push_back(Message{id(from), tag, std::move(payload)});
}

void GrainRun::contribute(std::uint32_t from, std::uint64_t step, std::vector<double> values) {
  if (slots_[from].finished) return fail(task_name(from) + " contributed after finishing");
  auto& all = contributions_[step];
  if (all.empty()) all.resize(slots_.size());
  if (all[from])
    return fail(task_name(from) + " contributed twice to step " + std::to_string(step));
  all[from] = std::move(values);
  if (std::any_of(all.begin(), all.end(), [](const auto& v) { return !v; })) return;
  std::vector<std::vector<double>> in_order;
  for (auto& v : all) in_order.push_back(std::move(*v));
  contributions_.erase(step);
  Result<std::vector<double>> combined = combine_contributions(app_.reduction_ops(), in_order);
  if (!combined) return fail("step " + std::to_string(step) + ": " + combined.error());
  announce(step, std::move(*combined));
}

// The root's part: the step's changes go out with its reduction, the same list to every task.
void GrainRun::announce(std::uint64_t step, std::vector<double> values) {
  ++stats_.reductions;
  std::vector<const Task*> tasks;
  for (const Slot& s : slots_) tasks.push_back(s.task.get());
  const std::vector<GrainChange> changes = planner_(step, tasks);
  stats_.changes += changes.size();
  for (Slot& s : slots_) {
    if (!s.finished) s.announcements.push_back(Announcement{step, values, changes});
  }
}

void GrainRun::finish(std::uint32_t from, std::vector<std::uint8_t> result) {
  Slot& slot = slots_[from];
  if (slot.finished) return fail(task_name(from) + " finished twice");
  slot.finished = true;
  slot.result = std::move(result);
  slot.announcements.clear();
  std::erase_if(channels_, [&](const auto& c) { return c.first.second == from; });
}

// State out, a fresh task from the spec, state in, the same bytes out again, start().
void GrainRun::migrate_one() {
  std::vector<std::uint32_t> movable;
  for (std::uint32_t i = 0; i < slots_.size(); ++i) {
    if (!slots_[i].finished) movable.push_back(i);
  }
  if (movable.empty()) return;
  const std::uint32_t index = movable[rng_() % movable.size()];
  Slot& slot = slots_[index];
  const std::vector<std::uint8_t> state = save_task_state(*slot.task);
  std::unique_ptr<Task> fresh = app_.create_task(spec_, index);
  if (!fresh) return fail("create_task returned no task for " + task_name(index));
  if (Status s = restore_task_state(*fresh, state); !s) {
    return fail("state of " + task_name(index) + " does not restore: " + s.message());
  }
  if (save_task_state(*fresh) != state) {
    return fail("state of " + task_name(index) + " changes when saved again after a restore");
  }
  slot.task = std::move(fresh);
  ++stats_.migrations;
  if (slot.started) handler(index, [](Task& t, Context& ctx) { t.start(ctx); });
}

}  // namespace

GrainPlanner scripted_changes(std::map<std::uint64_t, std::vector<GrainChange>> script) {
  return [script = std::move(script)](std::uint64_t step, const std::vector<const Task*>&) {
    const auto it = script.find(step);
    return it == script.end() ? std::vector<GrainChange>{} : it->second;
  };
}

Result<JobOutcome> run_with_grain_changes(const Application& app, JobSpec spec,
                                          const GrainPlanner& planner,
                                          const GrainRunOptions& options, GrainRunStats* stats) {
  GrainRun run(app, std::move(spec), planner, options);
  Result<JobOutcome> out = run.execute();
  if (stats) *stats = run.stats();
  return out;
}

}  // namespace drift::test_support
