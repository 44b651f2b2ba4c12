#include "sdk/task_context.h"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "node/machine/emulated_compute.h"

namespace drift {

TaskContext::TaskContext(TaskSlot& slot, const Emulator* emulator, std::uint64_t max_payload)
    : slot_(slot), emulator_(emulator), max_payload_(max_payload) {
  effects_.task = slot.id;
  effects_.report.index = slot.id.index;
}

void TaskContext::send(TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload) {
  if (to.job != slot_.id.job) {
    char jobs[64];
    std::snprintf(jobs, sizeof jobs, "%#llx, not this job %#llx",
                  static_cast<unsigned long long>(to.job),
                  static_cast<unsigned long long>(slot_.id.job));
    throw std::invalid_argument("send to task " + std::to_string(to.index) + " of job " + jobs);
  }
  if (to.index >= slot_.job.spec.tasks) {
    throw std::invalid_argument("send to task " + std::to_string(to.index) + ": this job's tasks "
                                "are 0.." + std::to_string(slot_.job.spec.tasks - 1));
  }
  if (max_payload_ > 0 && payload.size() > max_payload_) {
    throw std::length_error("send of " + std::to_string(payload.size()) + " bytes to task " +
                            std::to_string(to.index) + ": a message may carry at most " +
                            std::to_string(max_payload_) + " bytes (the daemons' frame limit)");
  }
  TaskMessage msg;
  msg.from = slot_.id;
  msg.to = to;
  msg.seq = slot_.sender.next(to);
  msg.tag = tag;
  msg.generation = slot_.job.generation;
  msg.payload = std::move(payload);
  effects_.sends.push_back(std::move(msg));
}

void TaskContext::contribute(std::uint64_t step, std::vector<double> values) {
  if (step >= slot_.job.spec.steps) {
    throw std::invalid_argument("contribution to step " + std::to_string(step) + " of a job of " +
                                std::to_string(slot_.job.spec.steps) + " steps");
  }
  effects_.report.contributions.push_back(WorkerContribution{step, std::move(values)});
}

void TaskContext::compute(double work_units, const std::function<void()>& fn) {
  // Busy time includes the emulated stretch: what a machine of that speed would have measured.
  const ComputeTime t = emulated_compute(emulator_, work_units, fn);
  effects_.report.busy_seconds += t.wall_s;
  effects_.report.cpu_seconds += t.cpu_s;
  effects_.report.work_units += work_units;
}

void TaskContext::finish(std::vector<std::uint8_t> result) {
  if (max_payload_ > 0 && result.size() > max_payload_) {
    throw std::length_error("a result of " + std::to_string(result.size()) +
                            " bytes: at most " + std::to_string(max_payload_) +
                            " fit a frame between nodes");
  }
  effects_.report.finished = true;
  effects_.report.result = std::move(result);
}

void TaskContext::fail(std::string reason) {
  if (effects_.report.failed) return;
  if (reason.size() > 4000) reason.resize(4000);
  effects_.report.failed = true;
  effects_.report.error = std::move(reason);
}

}  // namespace drift
