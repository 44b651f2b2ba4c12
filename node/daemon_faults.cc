// The daemon's part in surviving failures (docs/architecture.md §5, §9), part of Daemon: the buddy that
// keeps a second copy of each checkpoint, checkpoint copies on disk, what a member's death or
// return sets off here, fencing when the cluster declared this node dead, and jobs whose root
// died without a deputy taking them over.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "node/daemon.h"

namespace drift {

// checkpoint.disk: copies also go to <data_dir>/checkpoints; those a previous run of this node
// left there are offered to the jobs' roots as members come alive (on_transition).
Status Daemon::use_checkpoint_disk() {
  const std::filesystem::path dir = std::filesystem::path(config_.data_dir) / "checkpoints";
  auto disk = CheckpointDisk::open(dir);
  if (!disk) {
    return Status::error("checkpoint.disk = true, node.data_dir = " + config_.data_dir + " (" +
                         config_.where("node.data_dir") + "): " + disk.error());
  }
  const auto loaded = recovery_.use_disk(std::move(disk).value(),
                                         std::chrono::steady_clock::now() +
                                             config_.checkpoint.disk_wait);
  for (const std::string& problem : loaded.problems) {
    spdlog::warn("checkpoint.disk: {}; skipped", problem);
  }
  std::set<std::uint64_t> jobs;
  for (const auto& c : loaded.copies) jobs.insert(c.task.job);
  if (loaded.copies.empty()) {
    spdlog::info("checkpoint copies are also kept on disk, in {}", dir.string());
  } else {
    spdlog::info("checkpoint copies are also kept on disk, in {}: found {} copies of {} job(s), "
                 "{:.1f} MB, from before this node went down ({} interrupted write(s) removed); "
                 "offering them to the jobs' roots",
                 dir.string(), loaded.copies.size(), jobs.size(), loaded.bytes / 1e6,
                 loaded.partial_removed);
  }
  // The ends of the jobs rooted here (and of those it is the deputy of) too, in <data_dir>/jobs.
  const std::filesystem::path jobs_dir = std::filesystem::path(config_.data_dir) / "jobs";
  auto ends = JobEndDisk::open(jobs_dir);
  if (!ends) {
    return Status::error("checkpoint.disk = true, node.data_dir = " + config_.data_dir + " (" +
                         config_.where("node.data_dir") + "): " + ends.error());
  }
  const auto kept = coordinator_.use_end_disk(std::move(ends).value());
  for (const std::string& problem : kept.problems) {
    spdlog::warn("checkpoint.disk: {}; removed", problem);
  }
  spdlog::info("ended jobs are also kept on disk, in {}{}", jobs_dir.string(),
               kept.ends.empty() ? std::string()
                                 : ": found the ends of " + std::to_string(kept.ends.size()) +
                                       " job(s) from before this node went down");
  return Status::ok();
}

// The live member half way round the ring of live members ordered by id (the next one in a
// cluster of two or three): a partition cutting off a run of neighbouring ids does not take a
// task's node and its buddy together. 0 when alone.
std::uint32_t Daemon::buddy() const {
  std::vector<std::uint32_t> ring;
  for (const Member& m : table_.members()) {
    if (m.info.state == MemberState::kAlive || m.info.node_id == config_.node_id) {
      ring.push_back(m.info.node_id);
    }
  }
  if (ring.size() < 2) return 0;
  const auto self = std::find(ring.begin(), ring.end(), config_.node_id) - ring.begin();
  return ring[(static_cast<std::size_t>(self) + ring.size() / 2) % ring.size()];
}

// We were declared dead: others act as if we were gone (they recover our tasks), so we must be.
// Stops every hosted task and drops its state, then rejoins at the incarnation the member table
// took: connections made from now on present it, and every old one is closed.
void Daemon::fence(const std::string& reason) {
  const std::vector<std::uint64_t> jobs = host_.jobs();
  const std::size_t tasks = host_.task_count();
  // The jobs go on elsewhere (rolled back by their roots, or by the deputies of those rooted
  // here), and may be rolled back onto this node again once it has rejoined: they are dropped
  // here, not ended.
  std::set<std::uint64_t> dropped(jobs.begin(), jobs.end());  // tasks or checkpoint copies
  for (std::uint64_t job : jobs) {
    reset_job(job);
    host_.end(job);
    orphans_.erase(job);
  }
  for (std::uint64_t job : recovery_.jobs()) dropped.insert(job);
  recovery_.clear();
  const auto handovers = coordinator_.abandon_all("was declared dead");
  const std::uint64_t old_incarnation = incarnation_;
  incarnation_ = table_.self().incarnation;
  transport_.set_incarnation(incarnation_);
  const std::size_t closed = transport_.close_node_connections("fenced: rejoining");
  spdlog::warn("FENCED: {} (this process started as incarnation {}): stopped {} task(s) of {} job(s) and dropped their "
               "state, closed {} connection(s); rejoining as incarnation {}",
               reason, old_incarnation, tasks, jobs.size(), closed, incarnation_);
  // The jobs rooted here go to their deputies at once: a deputy that still sees this node alive
  // would not take them over by itself. Sent as the new incarnation, which no node has declared
  // dead.
  for (const auto& [deputy, job] : handovers) send_to_node(deputy, DeputyOrder{job, true});
  // A root that did not see us declared dead (only some node did, e.g. one that came back from
  // a partition) would wait for the tasks dropped here until its stall watchdog, and a root
  // counting on the checkpoint copies dropped here would restore from nothing: tell it. Which
  // node is a job's root now this node may not know (the job may have been taken over while
  // it was paused; it may have been the root itself): every member hears it, and the members
  // not rooting the job ignore it.
  for (std::uint64_t job : dropped) {
    const NodeLeaving leaving{job, config_.node_id,
                              "it was declared dead by some node and fenced itself, dropping "
                              "its tasks and checkpoint copies"};
    for (const Member& m : table_.members()) {
      if (m.info.node_id != config_.node_id && m.info.state != MemberState::kDead) {
        send_to_node(m.info.node_id, leaving);
      }
    }
  }
}

void Daemon::on_transition(const MemberTransition& t) {
  if (t.node_id != config_.node_id && !t.joined && t.from != t.to) {  // for the fault harness's report
    if (t.to == MemberState::kSuspect) ++counters_.suspicions;
    if (t.to == MemberState::kDead) ++counters_.deaths_declared;
  }
  if (t.node_id == config_.node_id) {
    if (t.from == MemberState::kDead) {
      ++counters_.fences;
      fence("the cluster declared this node dead");
    } else if (t.from != MemberState::kAlive) {
      ++counters_.refutations;
    }
    return;
  }
  if (t.to == MemberState::kAlive) {
    for (WireMessage& m : unknown_peers_.take(t.node_id)) send_to_node(t.node_id, std::move(m));
    // After a restart: the copies found on disk go to every member, the jobs' roots among them.
    for (CheckpointOffer& offer : recovery_.offers()) send_to_node(t.node_id, std::move(offer));
    recovery_.on_member_alive();
  }
  if (t.to != MemberState::kDead) return;
  const Member* m = table_.find(t.node_id);
  std::string name = m ? m->info.name : "?";
  migration_.on_node_dead(t.node_id);
  binaries_.on_node_dead(t.node_id);
  coordinator_.on_node_dead(t.node_id, name);
  // Its deputy takes the job over and rolls it back; until then the tasks here wait.
  for (std::uint64_t job : host_.jobs()) {
    auto info = host_.job_info(job);
    if (info && info->root == t.node_id) {
      spdlog::warn("job {:#x}: its root, node {} ({}), was declared dead; waiting up to {} s for "
                   "its deputy to take over",
                   job, t.node_id, name, kOrphanPatience.count());
      orphans_[job] = Orphan{t.node_id, std::chrono::steady_clock::now()};
    }
  }
}

// Jobs whose root died and whose deputy has not rolled them back in time are given up here.
void Daemon::end_orphans(std::chrono::steady_clock::time_point now) {
  std::vector<std::uint64_t> lost;
  for (auto it = orphans_.begin(); it != orphans_.end();) {
    auto info = host_.job_info(it->first);
    if (!info || info->root != it->second.root) {
      it = orphans_.erase(it);  // ended, or a new root rolled it back
      continue;
    }
    if (now - it->second.since >= kOrphanPatience) lost.push_back(it->first);
    ++it;
  }
  for (std::uint64_t job : lost) {
    spdlog::warn("job {:#x} abandoned: no deputy took it over within {} s of its root's death",
                 job, kOrphanPatience.count());
    on_job_end(job);
  }
}

}  // namespace drift
