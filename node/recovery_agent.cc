#include "node/recovery_agent.h"

#include <spdlog/spdlog.h>

namespace drift {

RecoveryAgent::RecoveryAgent(Messenger& messenger, TaskHost& host, LocationCache& locations,
                             const AppRegistry& apps, Hooks hooks)
    : messenger_(messenger),
      host_(host),
      locations_(locations),
      apps_(apps),
      hooks_(std::move(hooks)) {}

void RecoveryAgent::on_saved(TaskId task, std::uint32_t generation, const CheckpointState& saved) {
  if (host_.generation(task.job) != generation) return;  // rolled back meanwhile
  store_.put(task, saved.step, saved.state);
  const std::uint32_t self = messenger_.self_id();
  const std::uint32_t buddy = hooks_.buddy();
  if (buddy == 0) {
    // Alone: the only copy is ours.
    return messenger_.send_to_node(locations_.home(task.job),
                                   CheckpointAck{task, generation, saved.step, self, 0});
  }
  // In pieces of at most a chunk, so that no frame exceeds the peers' frame limit.
  for (Frame& frame :
       checkpoint_frames(task, generation, saved.step, self, saved.state, hooks_.chunk_bytes)) {
    messenger_.send_frame(buddy, std::move(frame));
  }
}

void RecoveryAgent::on_copy(CheckpointCopy copy, std::uint32_t from) {
  if (host_.knows_job(copy.task.job) && host_.generation(copy.task.job) > copy.generation) return;
  CheckpointStore::State state = pieces_.add(copy);
  if (!state) {
    if (!piece_fits(copy)) {
      spdlog::warn("checkpoint piece of task {}/{} at step {} lies outside its {} bytes; dropped",
                   copy.task.job, copy.task.index, copy.step, copy.total);
    }
    return;
  }
  store_.put(copy.task, copy.step, std::move(state));
  messenger_.send_to_node(locations_.home(copy.task.job),
                          CheckpointAck{copy.task, copy.generation, copy.step, from,
                                        messenger_.self_id()});
}

void RecoveryAgent::drop_job(std::uint64_t job) {
  store_.drop_job(job);
  pieces_.drop_job(job);
}

void RecoveryAgent::clear() {
  store_.clear();
  pieces_.clear();
}

void RecoveryAgent::on_commit(const CheckpointCommit& commit) {
  store_.commit(commit.job, commit.step);
}

void RecoveryAgent::on_rollback(const JobRollback& rollback) {
  Status st = restore(rollback);
  if (st) {
    spdlog::info("job {:#x} rolled back to {} (generation {}): {} task(s) restored here",
                 rollback.job,
                 rollback.from_start ? std::string("its start")
                                     : "step " + std::to_string(rollback.step),
                 rollback.generation, rollback.restore.size());
  } else {
    spdlog::warn("job {:#x}: rollback to generation {} failed here: {}", rollback.job,
                 rollback.generation, st.message());
  }
  messenger_.send_to_node(rollback.root, RollbackReady{rollback.job, rollback.generation,
                                                       messenger_.self_id(), st.is_ok(),
                                                       st.message()});
}

Status RecoveryAgent::restore(const JobRollback& rollback) {
  if (host_.knows_job(rollback.job) && host_.generation(rollback.job) >= rollback.generation) {
    return Status::error("the job is already at generation " +
                         std::to_string(host_.generation(rollback.job)));
  }
  const Application* app = apps_.find(rollback.spec.app);
  if (!app) return Status::error("unknown application '" + rollback.spec.app + "'");
  auto info = std::make_shared<JobInfo>();
  info->id = rollback.job;
  info->root = rollback.root;
  info->generation = rollback.generation;
  info->spec = rollback.spec;
  info->app = app;
  if (auto st = app->validate(info->spec); !st) return st;
  std::vector<std::pair<std::uint32_t, TaskHost::SavedState>> restore;
  for (std::uint32_t index : rollback.restore) {
    TaskHost::SavedState state;
    if (!rollback.from_start) {
      state = store_.find(TaskId{rollback.job, index}, rollback.step);
      if (!state) {
        return Status::error("no copy of task " + std::to_string(index) + " at step " +
                             std::to_string(rollback.step) + " here");
      }
    }
    restore.emplace_back(index, std::move(state));
  }
  hooks_.reset_job(rollback.job);
  if (auto st = host_.rollback(info, restore); !st) return st;
  locations_.set_job(rollback.job, rollback.placement, generation_epoch(rollback.generation));
  locations_.set_home(rollback.job, rollback.root);
  if (rollback.from_start) {
    store_.drop_job(rollback.job);
  } else {
    store_.discard_after(rollback.job, rollback.step);
  }
  return Status::ok();
}

void RecoveryAgent::on_resume(const JobResume& resume) {
  if (host_.generation(resume.job) != resume.generation) return;
  host_.start(resume.job);
}

}  // namespace drift
