#include "node/tasks/task_context.h"

#include <stdexcept>

#include "node/machine/emulated_compute.h"

namespace drift {

TaskContext::TaskContext(TaskSlot& slot, const Emulator* emulator)
    : slot_(slot), emulator_(emulator) {
  effects_.task = slot.id;
  effects_.job = slot.job;
}

void TaskContext::send(TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload) {
  if (to.job != slot_.id.job || to.index >= slot_.job->spec.tasks) {
    throw std::invalid_argument("send to task " + std::to_string(to.job) + ":" +
                                std::to_string(to.index) + " outside this job");
  }
  TaskMessage msg;
  msg.from = slot_.id;
  msg.to = to;
  msg.seq = slot_.sender.next(to);
  msg.tag = tag;
  msg.generation = slot_.job->generation;
  msg.payload = std::move(payload);
  effects_.sends.push_back(std::move(msg));
}

void TaskContext::contribute(std::uint64_t step, std::vector<double> values) {
  ReductionContribution c;
  c.job = slot_.id.job;
  c.task = slot_.id.index;
  c.step = step;
  c.values = std::move(values);
  c.generation = slot_.job->generation;
  effects_.contributions.push_back(std::move(c));
}

void TaskContext::compute(double work_units, const std::function<void()>& fn) {
  // Busy time includes the emulated stretch: what a machine of that speed would have measured.
  effects_.busy_seconds += emulated_compute(emulator_, work_units, fn);
  effects_.work_units += work_units;
}

void TaskContext::finish(std::vector<std::uint8_t> result) {
  TaskFinished f;
  f.job = slot_.id.job;
  f.task = slot_.id.index;
  f.result = std::move(result);
  f.generation = slot_.job->generation;
  effects_.finished = std::move(f);
}

void TaskContext::fail(std::string reason) {
  if (!effects_.error) effects_.error = std::move(reason);
}

}  // namespace drift
