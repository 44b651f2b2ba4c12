#include "node/recovery/recovery_agent.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace drift {

RecoveryAgent::RecoveryAgent(Messenger& messenger, TaskHost& host, LocationCache& locations,
                             Hooks hooks)
    : messenger_(messenger),
      host_(host),
      locations_(locations),
      hooks_(std::move(hooks)),
      pieces_(hooks_.max_copy_bytes) {}

void RecoveryAgent::on_saved(TaskId task, std::uint32_t generation, const CheckpointState& saved) {
  if (host_.generation(task.job) != generation) return;  // rolled back meanwhile
  keep(task, saved.step, saved.state, [this, task, generation, step = saved.step,
                                       state = saved.state] {
    if (host_.generation(task.job) != generation) return;  // rolled back while it was written
    const std::uint32_t self = messenger_.self_id();
    const std::uint32_t buddy = hooks_.buddy();
    if (buddy == 0) {
      // Alone: the only copy is ours.
      return messenger_.send_to_node(locations_.home(task.job),
                                     CheckpointAck{task, generation, step, self, 0});
    }
    // In pieces of at most a chunk, so that no frame exceeds the peers' frame limit.
    for (Frame& frame :
         checkpoint_frames(task, generation, step, self, state, hooks_.chunk_bytes)) {
      messenger_.send_frame(buddy, std::move(frame));
    }
  });
}

void RecoveryAgent::on_copy(CheckpointCopy copy, std::uint32_t from) {
  if (host_.knows_job(copy.task.job) && host_.generation(copy.task.job) > copy.generation) return;
  CheckpointStore::State state = pieces_.add(copy);
  if (!state) {
    if (!pieces_.why().empty()) {
      spdlog::warn("a checkpoint piece of task {}/{} at step {} from node {} was dropped: {}",
                   copy.task.job, copy.task.index, copy.step, from, pieces_.why());
    }
    return;
  }
  const CheckpointAck ack{copy.task, copy.generation, copy.step, from, messenger_.self_id()};
  keep(copy.task, copy.step, std::move(state), [this, ack, from] {
    const std::uint32_t home = locations_.home(ack.task.job);
    messenger_.send_to_node(home, ack);
    // The root this node knows may not be the job's root: it never heard that the root changed
    // (it rejoined after the takeover's rollback), or it is a node the cluster has just declared
    // dead that still believes itself the root, and would swallow the acknowledgement — the
    // checkpoint would never commit. The task's node, which took part in the new root's
    // rollback, passes it on too (Daemon's dispatch); the root counts each task's once.
    if (from != home) messenger_.send_to_node(from, ack);
  });
}

void RecoveryAgent::keep(TaskId task, std::uint64_t step, CheckpointStore::State state,
                         std::function<void()> then) {
  ++copies_kept_;
  if (state) bytes_kept_ += state->size();
  store_.put(task, step, state);
  if (!disk_) return then();
  if (disk_late_) {  // kept in memory only until the disk has caught up
    disk_skipped_.emplace(task, step);
    if (disk_skipped_.size() > 2 * store_.copies() + 1024) {  // a disk that stays hung: the
      std::erase_if(disk_skipped_, [this](const auto& copy) {  // list no longer than the store
        return !store_.find(copy.first, copy.second);
      });
    }
    return then();
  }
  if (!hooks_.post) {  // no way back to the network thread: written, acknowledged from memory
    disk_->write(task, step, std::move(state));
    return then();
  }
  // Acknowledged once: when the disk is done with it, or when it has waited too long.
  auto once = std::make_shared<std::function<void()>>(std::move(then));
  auto finish = [once] {
    if (!*once) return;
    auto f = std::move(*once);
    *once = nullptr;
    f();
  };
  ++disk_pending_;
  disk_->write(task, step, std::move(state),
               [this, post = hooks_.post, alive = std::weak_ptr<bool>(alive_),
                finish](bool on_disk) {
                 (void)on_disk;  // a failed write is logged; the memory copy stands
                 post([this, alive, finish] {
                   if (!alive.lock()) return;
                   if (--disk_pending_ == 0 && disk_late_) catch_up_disk();
                   finish();
                 });
               });
  if (!hooks_.post_after) return;
  hooks_.post_after(hooks_.disk_patience, [this, alive = std::weak_ptr<bool>(alive_), finish,
                                           once, task, step] {
    if (!alive.lock() || !*once) return;
    if (!disk_late_) {
      disk_late_ = true;
      spdlog::warn("checkpoint.disk: the copy of task {:#x}/{} at step {} is not on disk after "
                   "{} ms ({} does not answer): it is acknowledged from memory, and copies are "
                   "kept in memory only until the disk has caught up",
                   task.job, task.index, step, hooks_.disk_patience.count(),
                   disk_->dir().string());
    }
    finish();
  });
}

// The disk answers again: the copies kept in memory only meanwhile that are still kept (not
// superseded by a commit, not of a job that ended) are written now. Until then the disk may
// hold no copy of a job at all, as its commits went on deleting the older steps.
void RecoveryAgent::catch_up_disk() {
  disk_late_ = false;
  std::size_t written = 0;
  for (const auto& [task, step] : disk_skipped_) {
    if (CheckpointStore::State state = store_.find(task, step)) {
      disk_->write(task, step, std::move(state));
      ++written;
    }
  }
  spdlog::warn("checkpoint.disk: {} has caught up; copies are written again ({} were kept in "
               "memory only meanwhile, {} of them still kept and written now)",
               disk_->dir().string(), disk_skipped_.size(), written);
  disk_skipped_.clear();
}

void RecoveryAgent::discard_after(std::uint64_t job, std::uint64_t step) {
  store_.discard_after(job, step);
  if (disk_) disk_->discard_after(job, step);
}

void RecoveryAgent::drop_job(std::uint64_t job) {
  unready_.erase(job);
  store_.drop_job(job);
  pieces_.drop_job(job);
  if (disk_) disk_->drop_job(job);
  unclaimed_.erase(job);
}

void RecoveryAgent::clear() {
  unready_.clear();
  store_.clear();
  pieces_.clear();
  if (disk_) disk_->clear();
  unclaimed_.clear();
}

std::vector<std::uint64_t> RecoveryAgent::jobs() const {
  std::vector<std::uint64_t> out = store_.jobs();
  const std::vector<std::uint64_t> gathering = pieces_.jobs();
  out.insert(out.end(), gathering.begin(), gathering.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void RecoveryAgent::on_commit(const CheckpointCommit& commit) {
  store_.commit(commit.job, commit.step);
  if (disk_) disk_->commit(commit.job, commit.step);
  unclaimed_.erase(commit.job);
}

CheckpointDisk::Loaded RecoveryAgent::use_disk(std::unique_ptr<CheckpointDisk> disk,
                                               Clock::time_point claim_by) {
  CheckpointDisk::Loaded loaded = CheckpointDisk::load(disk->dir());
  for (CheckpointDisk::Copy& copy : loaded.copies) {
    store_.put(copy.task, copy.step, std::move(copy.state));
    unclaimed_[copy.task.job] = claim_by;
  }
  disk_ = std::move(disk);
  return loaded;
}

std::vector<CheckpointOffer> RecoveryAgent::offers() const {
  std::vector<CheckpointOffer> out;
  for (const auto& [job, until] : unclaimed_) {
    for (std::uint64_t step : store_.steps(job)) {
      out.push_back(CheckpointOffer{job, step, messenger_.self_id(), store_.tasks(job, step)});
    }
  }
  return out;
}

void RecoveryAgent::sweep(Clock::time_point now) {
  std::vector<std::uint64_t> expired;
  for (const auto& [job, until] : unclaimed_) {
    if (now >= until) expired.push_back(job);
  }
  for (std::uint64_t job : expired) {
    std::size_t copies = 0;
    for (std::uint64_t step : store_.steps(job)) copies += store_.tasks(job, step).size();
    spdlog::info("job {:#x}: no root claimed the {} checkpoint copies of it found on disk "
                 "(the job ended, or failed, while this node was down); deleted",
                 job, copies);
    drop_job(job);
  }
}

void RecoveryAgent::on_rollback(const JobRollback& rollback) {
  unclaimed_.erase(rollback.job);  // its root knows of it
  unready_.erase(rollback.job);
  Status st = restore(rollback);
  if (st) {
    spdlog::info("job {:#x} rolled back to {} (generation {}): {} task(s) restored here",
                 rollback.job,
                 rollback.from_start ? std::string("its start")
                                     : "step " + std::to_string(rollback.step + 1),
                 rollback.generation, rollback.restore.size());
    if (auto missing = unseen(rollback.placement); !missing.empty()) {
      std::string nodes;
      for (std::uint32_t n : missing) nodes += (nodes.empty() ? "" : ", ") + std::to_string(n);
      spdlog::info("job {:#x}: ready once node(s) {} of the job are alive here (they joined a "
                   "moment ago)", rollback.job, nodes);
      unready_[rollback.job] = rollback;
      return;
    }
  } else {
    spdlog::warn("job {:#x}: rollback to generation {} failed here: {}", rollback.job,
                 rollback.generation, st.message());
  }
  messenger_.send_to_node(rollback.root, RollbackReady{rollback.job, rollback.generation,
                                                       messenger_.self_id(), st.is_ok(),
                                                       st.message()});
}

std::vector<std::uint32_t> RecoveryAgent::unseen(
    const std::vector<std::uint32_t>& placement) const {
  std::vector<std::uint32_t> out;
  for (std::uint32_t node : placement) {
    if (node == messenger_.self_id() || !hooks_.alive || hooks_.alive(node)) continue;
    if (std::find(out.begin(), out.end(), node) == out.end()) out.push_back(node);
  }
  return out;
}

void RecoveryAgent::on_member_alive() {
  for (auto it = unready_.begin(); it != unready_.end();) {
    const JobRollback& rb = it->second;
    if (host_.generation(rb.job) != rb.generation) {
      it = unready_.erase(it);  // rolled back again, or ended, meanwhile
      continue;
    }
    if (!unseen(rb.placement).empty()) {
      ++it;
      continue;
    }
    messenger_.send_to_node(rb.root, RollbackReady{rb.job, rb.generation, messenger_.self_id(),
                                                   true, ""});
    it = unready_.erase(it);
  }
}

Status RecoveryAgent::restore(const JobRollback& rollback) {
  if (host_.knows_job(rollback.job) && host_.generation(rollback.job) >= rollback.generation) {
    return Status::error("the job is already at generation " +
                         std::to_string(host_.generation(rollback.job)));
  }
  auto info = std::make_shared<JobInfo>();
  info->id = rollback.job;
  info->root = rollback.root;
  info->generation = rollback.generation;
  info->spec = rollback.spec;
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
    if (disk_) disk_->drop_job(rollback.job);
  } else {
    discard_after(rollback.job, rollback.step);
  }
  return Status::ok();
}

void RecoveryAgent::on_resume(const JobResume& resume) {
  if (host_.generation(resume.job) != resume.generation) return;
  host_.start(resume.job);
}

}  // namespace drift
