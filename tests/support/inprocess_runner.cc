// The in-process runtime (inprocess_runner.h).
#include "tests/support/inprocess_runner.h"

#include <algorithm>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <drift/context.h>
#include "tests/support/task_state.h"

namespace drift::test_support {
namespace {

// splitmix64: tiny, and the same sequence on every platform and standard library.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }

 private:
  std::uint64_t state_;
};

std::string task_name(std::uint32_t index) { return "task " + std::to_string(index); }

class Run;

class RunContext final : public Context {
 public:
  RunContext(Run& run, std::uint32_t index) : run_(run), index_(index) {}
  TaskId self() const override;
  const JobSpec& job() const override;
  void send(TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload) override;
  void contribute(std::uint64_t step, std::vector<double> values) override;
  void compute(double, const std::function<void()>& fn) override { fn(); }
  void finish(std::vector<std::uint8_t> result) override;
  void fail(std::string reason) override;

 private:
  Run& run_;
  std::uint32_t index_;
};

class Run {
 public:
  Run(const Application& app, JobSpec spec, const InProcessOptions& options)
      : app_(app),
        spec_(std::move(spec)),
        options_(options),
        rng_(options.seed),
        ops_(app.reduction_ops()) {}

  Result<JobOutcome> execute();
  const InProcessStats& stats() const { return stats_; }

  // Effects of RunContext, applied at once: nothing is delivered before the handler returns.
  TaskId id(std::uint32_t index) const { return TaskId{options_.job_id, index}; }
  const JobSpec& spec() const { return spec_; }
  void send(std::uint32_t from, TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload);
  void contribute(std::uint32_t from, std::uint64_t step, std::vector<double> values);
  void finish(std::uint32_t from, std::vector<std::uint8_t> result);
  void task_failed(std::uint32_t from, const std::string& reason) {
    fail(task_name(from) + ": " + reason);
  }

 private:
  struct Announcement {  // one step's reduction as one task gets it
    std::uint64_t step = 0;
    std::vector<double> values;
    std::vector<GrainChange> changes;
    bool regrained = false;
  };
  struct Slot {
    std::unique_ptr<Task> task;
    bool started = false;
    bool finish_called = false;  // during the current handler
    bool finished = false;
    std::vector<std::uint8_t> result;
    std::deque<Announcement> reductions;
  };
  struct Pending {  // one step's contributions so far
    std::vector<std::optional<std::vector<double>>> values;
    std::size_t count = 0;
  };
  enum class Kind { kStart, kMessage, kRegrain, kReduced };
  struct Event {
    Kind kind;
    std::uint32_t task;
    std::pair<std::uint32_t, std::uint32_t> channel;  // kMessage only
  };

  Status create_tasks();
  std::vector<Event> deliverable();
  void deliver(const Event& e);
  void handler(std::uint32_t index, const std::function<void(Task&, Context&)>& fn);
  void migrate(std::uint32_t index);
  void fail(std::string message) {
    if (failure_.is_ok()) failure_ = Status::error(std::move(message));
  }
  std::size_t unfinished() const;
  Status deadlock() const;

  const Application& app_;
  JobSpec spec_;
  InProcessOptions options_;
  Rng rng_;
  std::vector<ReduceOp> ops_;
  std::vector<Slot> slots_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::deque<Message>> channels_;
  std::map<std::uint64_t, Pending> contributions_;
  Status failure_ = Status::ok();
  InProcessStats stats_;
};

TaskId RunContext::self() const { return run_.id(index_); }
const JobSpec& RunContext::job() const { return run_.spec(); }
void RunContext::send(TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload) {
  run_.send(index_, to, tag, std::move(payload));
}
void RunContext::contribute(std::uint64_t step, std::vector<double> values) {
  run_.contribute(index_, step, std::move(values));
}
void RunContext::finish(std::vector<std::uint8_t> result) {
  run_.finish(index_, std::move(result));
}
void RunContext::fail(std::string reason) { run_.task_failed(index_, reason); }

Result<JobOutcome> Run::execute() {
  if (Status s = app_.validate(spec_); !s) return s;
  if (Status s = create_tasks(); !s) return s;
  while (unfinished() > 0) {
    if (!failure_.is_ok()) return failure_;
    if (stats_.handlers >= options_.max_handlers) {
      return Status::error("in-process run: more than " + std::to_string(options_.max_handlers) +
                           " handlers, " + std::to_string(unfinished()) + " tasks unfinished");
    }
    const std::vector<Event> events = deliverable();
    if (events.empty()) return deadlock();
    deliver(events[rng_.below(events.size())]);
    if (failure_.is_ok() && options_.migrate_probability > 0 &&
        rng_.chance(options_.migrate_probability)) {
      std::vector<std::uint32_t> movable;
      for (std::uint32_t i = 0; i < slots_.size(); ++i) {
        if (!slots_[i].finished) movable.push_back(i);
      }
      if (!movable.empty()) migrate(movable[rng_.below(movable.size())]);
    }
  }
  if (!failure_.is_ok()) return failure_;
  std::vector<std::vector<std::uint8_t>> results;
  results.reserve(slots_.size());
  for (Slot& s : slots_) results.push_back(std::move(s.result));
  return app_.combine(spec_, results);
}

Status Run::create_tasks() {
  slots_.resize(spec_.tasks);
  for (std::uint32_t i = 0; i < spec_.tasks; ++i) {
    slots_[i].task = app_.create_task(spec_, i);
    if (!slots_[i].task) return Status::error("create_task returned no task for " + task_name(i));
  }
  return Status::ok();
}

std::vector<Run::Event> Run::deliverable() {
  std::vector<Event> events;
  for (std::uint32_t i = 0; i < slots_.size(); ++i) {
    const Slot& s = slots_[i];
    if (s.finished) continue;
    if (!s.started) events.push_back({Kind::kStart, i, {}});
    if (s.started && !s.reductions.empty()) {
      const Announcement& a = s.reductions.front();
      events.push_back({!a.changes.empty() && !a.regrained ? Kind::kRegrain : Kind::kReduced, i, {}});
    }
  }
  for (auto it = channels_.begin(); it != channels_.end();) {
    const std::uint32_t to = it->first.second;
    if (slots_[to].finished) {  // a finished task's mail is dropped
      stats_.dropped += it->second.size();
      it = channels_.erase(it);
      continue;
    }
    if (slots_[to].started || options_.deliver_before_start) {
      events.push_back({Kind::kMessage, to, it->first});
    }
    ++it;
  }
  return events;
}

void Run::deliver(const Event& e) {
  Slot& slot = slots_[e.task];
  switch (e.kind) {
    case Kind::kStart:
      slot.started = true;
      handler(e.task, [](Task& t, Context& ctx) { t.start(ctx); });
      break;
    case Kind::kMessage: {
      auto it = channels_.find(e.channel);
      Message msg = std::move(it->second.front());
      it->second.pop_front();
      if (it->second.empty()) channels_.erase(it);
      handler(e.task, [&msg](Task& t, Context& ctx) { t.receive(ctx, std::move(msg)); });
      break;
    }
    case Kind::kRegrain: {
      Announcement& a = slot.reductions.front();
      a.regrained = true;
      const Announcement copy = a;  // the handler may finish the task and clear the queue
      handler(e.task, [&copy](Task& t, Context& ctx) { t.regrain(ctx, copy.step, copy.changes); });
      break;
    }
    case Kind::kReduced: {
      const Announcement a = std::move(slot.reductions.front());
      slot.reductions.pop_front();
      handler(e.task, [&a](Task& t, Context& ctx) { t.reduced(ctx, a.step, a.values); });
      break;
    }
  }
}

void Run::handler(std::uint32_t index, const std::function<void(Task&, Context&)>& fn) {
  Slot& slot = slots_[index];
  RunContext ctx(*this, index);
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
  if (slot.finish_called) {
    slot.finished = true;
    slot.reductions.clear();
  }
}

void Run::send(std::uint32_t from, TaskId to, std::uint32_t tag,
               std::vector<std::uint8_t> payload) {
  if (to.job != options_.job_id || to.index >= slots_.size()) {
    return fail(task_name(from) + " sent to unknown task (job " + std::to_string(to.job) +
                ", index " + std::to_string(to.index) + ")");
  }
  ++stats_.messages;
  ++stats_.messages_by_tag[tag];
  stats_.max_payload[tag] = std::max(stats_.max_payload[tag], payload.size());
  channels_[{from, to.index}].push_back(Message{id(from), tag, std::move(payload)});
}

void Run::contribute(std::uint32_t from, std::uint64_t step, std::vector<double> values) {
  if (slots_[from].finish_called) return fail(task_name(from) + " contributed after finish");
  Pending& p = contributions_[step];
  if (p.values.empty()) p.values.resize(slots_.size());
  if (p.values[from]) {
    return fail(task_name(from) + " contributed twice to step " + std::to_string(step));
  }
  p.values[from] = std::move(values);
  if (++p.count < slots_.size()) return;

  std::vector<std::vector<double>> all;
  all.reserve(slots_.size());
  for (auto& v : p.values) all.push_back(std::move(*v));
  contributions_.erase(step);
  Result<std::vector<double>> combined = combine_contributions(ops_, all);
  if (!combined) return fail("step " + std::to_string(step) + ": " + combined.error());
  ++stats_.reductions;
  // The root's part: the step's changes go out with its reduction, the same list to every task.
  std::vector<GrainChange> changes;
  if (options_.planner) {
    std::vector<const Task*> tasks;
    for (const Slot& s : slots_) tasks.push_back(s.task.get());
    changes = options_.planner(step, tasks);
    stats_.changes += changes.size();
  }
  for (Slot& s : slots_) {
    if (!s.finished && !s.finish_called) s.reductions.push_back({step, *combined, changes});
  }
}

void Run::finish(std::uint32_t from, std::vector<std::uint8_t> result) {
  Slot& slot = slots_[from];
  if (slot.finish_called) return fail(task_name(from) + " finished twice");
  slot.finish_called = true;
  slot.result = std::move(result);
}

// Emulated migration: state out, a fresh task from the spec, state in, (optionally) start().
void Run::migrate(std::uint32_t index) {
  Slot& slot = slots_[index];
  const std::vector<std::uint8_t> state = save_task_state(*slot.task);
  std::unique_ptr<Task> fresh = app_.create_task(spec_, index);
  if (!fresh) return fail("create_task returned no task for " + task_name(index));
  if (Status s = restore_task_state(*fresh, state); !s) {
    return fail("state of " + task_name(index) + " (" + std::to_string(state.size()) +
                " bytes) does not restore: " + s.message());
  }
  if (options_.check_state_round_trip && save_task_state(*fresh) != state) {
    return fail("state of " + task_name(index) + " changes when saved again after a restore");
  }
  slot.task = std::move(fresh);
  ++stats_.migrations;
  stats_.state_bytes += state.size();
  if (options_.restart_after_restore && slot.started) {
    handler(index, [](Task& t, Context& ctx) { t.start(ctx); });
  }
}

std::size_t Run::unfinished() const {
  return static_cast<std::size_t>(
      std::count_if(slots_.begin(), slots_.end(), [](const Slot& s) { return !s.finished; }));
}

Status Run::deadlock() const {
  std::string waiting;
  for (std::uint32_t i = 0; i < slots_.size() && waiting.size() < 200; ++i) {
    if (!slots_[i].finished) waiting += (waiting.empty() ? "" : ", ") + std::to_string(i);
  }
  std::string steps;
  for (const auto& [step, p] : contributions_) {
    steps += " step " + std::to_string(step) + ": " + std::to_string(p.count) + "/" +
             std::to_string(slots_.size()) + " contributions;";
  }
  return Status::error(
      "in-process run: deadlock, nothing to deliver; unfinished tasks: " + waiting + ";" + steps);
}

}  // namespace

Result<std::vector<double>> combine_contributions(
    const std::vector<ReduceOp>& ops, const std::vector<std::vector<double>>& contributions) {
  if (contributions.empty()) return Status::error("no contributions");
  for (std::size_t i = 0; i < contributions.size(); ++i) {
    if (contributions[i].size() != ops.size()) {
      return Status::error(task_name(static_cast<std::uint32_t>(i)) + " contributed " +
                           std::to_string(contributions[i].size()) + " values, the app reduces " +
                           std::to_string(ops.size()));
    }
  }
  std::vector<double> acc = contributions[0];
  for (std::size_t i = 1; i < contributions.size(); ++i) {
    for (std::size_t k = 0; k < ops.size(); ++k) {
      const double v = contributions[i][k];
      switch (ops[k]) {
        case ReduceOp::kSum:
          acc[k] = acc[k] + v;
          break;
        case ReduceOp::kMax:
          acc[k] = std::max(acc[k], v);
          break;
        case ReduceOp::kMin:
          acc[k] = std::min(acc[k], v);
          break;
      }
    }
  }
  return acc;
}

GrainPlanner scripted_changes(std::map<std::uint64_t, std::vector<GrainChange>> script) {
  return [script = std::move(script)](std::uint64_t step, const std::vector<const Task*>&) {
    const auto it = script.find(step);
    return it == script.end() ? std::vector<GrainChange>{} : it->second;
  };
}

Result<JobOutcome> run_in_process(const Application& app, JobSpec spec,
                                  const InProcessOptions& options, InProcessStats* stats) {
  Run run(app, std::move(spec), options);
  Result<JobOutcome> out = run.execute();
  if (stats) *stats = run.stats();
  return out;
}

}  // namespace drift::test_support
