// Sample hosted-task states (sample_task_states.h).
#include "tests/cross/sample_task_states.h"

#include <cereal/details/helpers.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>
#include <memory>
#include <utility>

#include "tests/support/app_registry.h"
#include "sdk/hosted_task_state.h"
#include "tests/apps/recording_context.h"

namespace drift::cross {
namespace {

// One task with the channel state TaskHost keeps beside it.
struct Hosted {
  std::unique_ptr<Task> task;
  ChannelReceiver receiver;
  ChannelSender sender;
};

std::vector<std::uint8_t> save(Hosted& h) {
  PortableOutputArchive ar;
  save_hosted_task(ar, *h.task, h.receiver, h.sender);
  return std::move(ar).take_bytes();
}

std::vector<std::uint8_t> encode_trace(const test_support::RecordingContext& ctx) {
  PortableOutputArchive ar;
  ar(static_cast<std::uint64_t>(ctx.sends.size()));
  for (const Message& m : ctx.sends) ar(m.from, m.tag, m.payload);
  ar(ctx.contributions, ctx.work);
  return std::move(ar).take_bytes();
}

std::vector<std::uint8_t> restart_trace(Task& task, const JobSpec& spec, std::uint32_t index) {
  test_support::RecordingContext ctx(index, spec);
  task.start(ctx);
  return encode_trace(ctx);
}

// Every task of `spec` started, then each of its first messages delivered through the channels.
std::vector<Hosted> first_exchange(const Application& app, const JobSpec& spec) {
  std::vector<Hosted> tasks(spec.tasks);
  std::vector<std::pair<std::uint32_t, Message>> sent;  // (from, message addressed in .from)
  for (std::uint32_t i = 0; i < spec.tasks; ++i) {
    tasks[i].task = app.create_task(spec, i);
    test_support::RecordingContext ctx(i, spec);
    tasks[i].task->start(ctx);
    for (Message& m : ctx.sends) sent.emplace_back(i, std::move(m));
  }
  const std::uint64_t job = test_support::RecordingContext::kJob;
  for (auto& [from, m] : sent) {
    Hosted& to = tasks[m.from.index];
    TaskMessage wire{TaskId{job, from}, m.from, tasks[from].sender.next(m.from), m.tag, 0,
                     std::move(m.payload)};
    for (TaskMessage& ready : to.receiver.accept(std::move(wire))) {
      test_support::RecordingContext ctx(m.from.index, spec);
      to.task->receive(ctx, Message{ready.from, ready.tag, std::move(ready.payload)});
    }
  }
  // An early message (seq 2 of a channel that delivered nothing yet) stays held in the state.
  for (std::uint32_t i = 0; i < spec.tasks; ++i) {
    const TaskId stranger{job, spec.tasks + 7};
    tasks[i].receiver.accept(TaskMessage{stranger, TaskId{job, i}, 2, 99, 0, {0x80, 0x01, 0xff}});
  }
  return tasks;
}

std::vector<SampleTaskState> make_samples() {
  const std::vector<JobSpec> specs = {
      JobSpec{"heat2d", 4, 6, {{"size", "24x20"}}, {}},
      JobSpec{"particles", 3, 6, {{"cells", "48"}, {"particles", "600"}, {"drift", "300"}}, {}},
  };
  std::vector<SampleTaskState> out;
  for (JobSpec spec : specs) {
    const Application* app = builtin_apps().find(spec.app);
    if (!app || !app->validate(spec)) continue;  // check_files reports the missing samples
    std::vector<Hosted> tasks = first_exchange(*app, spec);
    for (std::uint32_t i = 0; i < spec.tasks; ++i) {
      SampleTaskState s{spec.app + "-" + std::to_string(i), spec, i, save(tasks[i]), {}};
      s.restart_trace = restart_trace(*tasks[i].task, spec, i);
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace

const std::vector<SampleTaskState>& sample_task_states() {
  static const std::vector<SampleTaskState> samples = make_samples();
  return samples;
}

Status check_restores(const SampleTaskState& sample, std::span<const std::uint8_t> bytes) {
  const Application* app = builtin_apps().find(sample.spec.app);
  if (!app) return Status::error("no application " + sample.spec.app + " in this build");
  Hosted h{app->create_task(sample.spec, sample.index), {}, {}};
  try {
    BoundedInputArchive ar(bytes);
    load_hosted_task(ar, *h.task, h.receiver, h.sender);
    if (ar.remaining() != 0) {
      return Status::error(std::to_string(ar.remaining()) + " trailing bytes");
    }
  } catch (const WireError& e) {
    return Status::error(std::string("does not load: ") + e.what());
  } catch (const cereal::Exception& e) {
    return Status::error(std::string("does not load: ") + e.what());
  }
  if (save(h) != std::vector<std::uint8_t>(bytes.begin(), bytes.end())) {
    return Status::error("saved again, it gives other bytes");
  }
  if (restart_trace(*h.task, sample.spec, sample.index) != sample.restart_trace) {
    return Status::error("started again, it sends or contributes something else");
  }
  return Status::ok();
}

}  // namespace drift::cross
