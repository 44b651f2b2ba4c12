#include "node/balance/load_meter.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "node/tasks/handler_effects.h"

namespace drift {

LoadMeter::LoadMeter(Params params, ExternalLoadSource source)
    : params_(params), source_(std::move(source)) {}

void LoadMeter::on_effects(const HandlerEffects& e, double now_s) {
  if (!e.task.job) return;
  TaskMeasure& t = tasks_[e.task];
  t.load = e.load;
  t.partial_busy_s += e.busy_seconds;
  t.partial_work_units += e.work_units;
  t.work_units += e.work_units;
  if (e.cpu_seconds > 0 && std::isfinite(e.cpu_seconds)) compute_cpu_s_ += e.cpu_seconds;
  // Capacity needs no step boundary: every compute is a sample (pooled), so a node learns its
  // speed from its first computes, not only when a step of its tasks has ended.
  add_sample(e.work_units, params_.cpu_time ? e.cpu_seconds : e.busy_seconds, now_s);
  if (!e.contributions.empty()) {
    end_step(t, e.contributions.size(), now_s);
    if (e.job) {
      const std::uint64_t done = e.contributions.back().step + 1;
      t.steps_left = e.job->spec.steps > done ? static_cast<double>(e.job->spec.steps - done) : 0;
    }
  }
  if (e.finished || e.error) forget(e.task);  // it does no more work
}

// A handler contributing to several steps splits its time among them evenly.
void LoadMeter::end_step(TaskMeasure& t, std::size_t contributions, double now_s) {
  const double n = static_cast<double>(contributions);
  t.step_busy_s = t.partial_busy_s / n;
  t.step_work_units = t.partial_work_units / n;
  t.steps += contributions;
  steps_done_ += contributions;
  t.last_step_s = now_s;
  t.partial_busy_s = t.partial_work_units = 0;
}

// One sample of the unloaded speed: what the tasks got per CPU second (emulated: per busy second,
// times 1 + the external load they shared the CPU with), times the tasks computing side by side.
// Steps are pooled until they hold sample_window_s of that time, so a node running many short
// steps (a fast machine) does not feed the EWMA one jittery millisecond-long step at a time; a
// measured node with little work closes a window on wall time too (kLightWindowSeconds).
void LoadMeter::add_sample(double work_units, double seconds, double now_s) {
  if (!(seconds > 0) || !(work_units > 0)) return;
  if (!(pending_busy_ > 0)) pending_since_ = now_s;
  pending_work_ += work_units;
  pending_busy_ += seconds;
  // The first window is cut in three, so a node is measured as soon as it was with one sample.
  const double window = samples_ < kSamplesToMeasure
                            ? params_.sample_window_s / static_cast<double>(kSamplesToMeasure)
                            : params_.sample_window_s;
  const bool light = measured_ && now_s - pending_since_ >= kLightWindowSeconds &&
                     pending_busy_ >= kLightWindowShare * window;
  if (pending_busy_ < window && !light) return;
  const double shared = params_.cpu_time ? 1 : 1 + external_;
  const double sample = pending_work_ / pending_busy_ * shared * params_.parallelism;
  pending_work_ = pending_busy_ = 0;
  if (!std::isfinite(sample)) return;
  // The best of the last three samples goes into the EWMA, which starts from the best of the
  // first three. Interference only ever slows a window down — a burst of scheduling delay, a
  // checkpoint, tasks just arrived, every node starting its step at once — and never makes the
  // machine faster than it is, so a windowed maximum (as TCP BBR filters delivery rates) finds
  // the unloaded speed where a mean would follow each slow window, and the balancer would move
  // work on it and then back. The known slowdown, external load, is taken out of each sample.
  recent_[samples_ % recent_.size()] = sample;
  if (++samples_ < kSamplesToMeasure) return;
  const double best = *std::max_element(recent_.begin(), recent_.end());
  ewma_ = measured_ ? params_.ewma * best + (1 - params_.ewma) * ewma_ : best;
  if (!measured_) {
    measured_ = true;
    frozen_ = advertised();
  }
}

void LoadMeter::forget(TaskId task) { tasks_.erase(task); }

void LoadMeter::expect(TaskId task, double load) {
  if (!std::isfinite(load) || load < 0) return;
  auto [it, fresh] = tasks_.try_emplace(task);
  if (!fresh) return;  // already measured here
  it->second.load = load;
  it->second.expected = load;
}

void LoadMeter::retain(const std::vector<TaskId>& hosted) {
  const std::set<TaskId> keep(hosted.begin(), hosted.end());
  std::erase_if(tasks_, [&](const auto& entry) { return !keep.count(entry.first); });
}

void LoadMeter::track(const std::vector<TaskId>& hosted) {
  retain(hosted);
  if (tasks_.empty()) return;
  double sum = 0;
  for (const auto& [id, t] : tasks_) sum += task_load(id);
  const double mean = sum / static_cast<double>(tasks_.size());
  for (TaskId id : hosted) {
    if (!tasks_.count(id)) expect(id, mean);
  }
}

double LoadMeter::task_load(TaskId task) const {
  const TaskMeasure* t = this->task(task);
  if (!t) return 0;
  if (!params_.homogeneous) return t->load;
  return t->steps > 0 ? t->step_busy_s : std::max(t->partial_busy_s, t->expected);
}

double LoadMeter::node_load() const {
  double sum = 0;
  for (const auto& [id, t] : tasks_) sum += task_load(id);
  return sum;
}

double LoadMeter::base_capacity() const {
  const bool dynamic = params_.capacity == CapacityMode::kDynamic && measured_;
  return dynamic ? ewma_ : params_.static_capacity;
}

double LoadMeter::step_floor() const {
  if (!(step_overhead_ > 0) || !(params_.parallelism > 0)) return 0;
  return step_overhead_ * (1 + external_) / params_.parallelism;
}

double LoadMeter::advertised() const { return base_capacity() / (1 + external_); }

double LoadMeter::capacity() const {
  if (params_.homogeneous) return 1;
  if (params_.sensing == Sensing::kOnce && measured_) return frozen_;
  return advertised();
}

double LoadMeter::utilization() const {
  const double c = capacity();
  return c > 0 ? node_load() / c : 0;
}

void LoadMeter::sense(double now_s) {
  if (!source_) return;
  const double load = source_(now_s);
  external_ = std::isfinite(load) ? std::max(0.0, load) : 0;
}

const TaskMeasure* LoadMeter::task(TaskId task) const {
  auto it = tasks_.find(task);
  return it == tasks_.end() ? nullptr : &it->second;
}

}  // namespace drift
