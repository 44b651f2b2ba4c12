// The daemon's dispatch (part of Daemon): each message a peer sends goes to the part that
// handles it — from a node (unless that identity was declared dead, the message names another
// node as its sender, or it is one only a job's root sends and the node is not that root), or
// from a client, which may send only what its role allows.
#include <spdlog/spdlog.h>

#include <optional>

#include "node/daemon.h"
#include "node/net/loop_watch.h"

namespace drift {

namespace {

// The node a message says sent it, for the messages that say so: it must be the node the
// connection's handshake named (docs/architecture.md §4).
std::optional<std::uint32_t> claimed_sender(const WireMessage& msg) {
  return std::visit(
      [](const auto& m) -> std::optional<std::uint32_t> {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Heartbeat> || std::is_same_v<T, BalanceRequest>) {
          return m.from;
        } else if constexpr (std::is_same_v<T, TasksCreated> || std::is_same_v<T, RollbackReady> ||
                             std::is_same_v<T, NodeLeaving> || std::is_same_v<T, NodeLeft>) {
          return m.node;
        } else if constexpr (std::is_same_v<T, JobRollback> || std::is_same_v<T, JobRecord> ||
                             std::is_same_v<T, QueuedJobRecord>) {
          return m.root;
        } else if constexpr (std::is_same_v<T, JobEnded>) {
          return m.entry.root;
        } else {
          return std::nullopt;
        }
      },
      msg);
}

// The job of a message only the job's root sends: ending the job, and the reduced values every
// task waits for.
std::optional<std::uint64_t> root_only_job(const WireMessage& msg) {
  if (const auto* end = std::get_if<JobEnd>(&msg)) return end->job;
  if (const auto* reduced = std::get_if<ReductionResult>(&msg)) return reduced->job;
  return std::nullopt;
}

}  // namespace

void Daemon::on_message(const ConnectionPtr& conn, WireMessage&& msg) {
  const LoopHold hold(to_string(type_of(msg)));
  if (conn->peer().role == PeerRole::kClient) return on_client_message(conn, std::move(msg));
  if (stale(conn->peer())) {
    spdlog::debug("dropped {} from node {} at incarnation {}, declared dead",
                  to_string(type_of(msg)), conn->peer().node_id, conn->peer().incarnation);
    return;
  }
  if (const auto sender = claimed_sender(msg); sender && *sender != conn->peer().node_id) {
    ++forged_senders_;
    if (refusal_log_.allow(std::chrono::steady_clock::now())) {
      spdlog::warn("dropped {} from {}: it claims to come from node {} ({} such so far)",
                   to_string(type_of(msg)), conn->describe(), *sender, forged_senders_);
    }
    return;
  }
  if (const auto job = root_only_job(msg); job && locations_.home(*job) != conn->peer().node_id) {
    ++forged_senders_;
    if (refusal_log_.allow(std::chrono::steady_clock::now())) {
      spdlog::warn("dropped {} of job {:#x} from {}: only the job's root, node {}, sends it ({} "
                   "such so far)",
                   to_string(type_of(msg)), *job, conn->describe(), locations_.home(*job),
                   forged_senders_);
    }
    return;
  }
  on_node_message(conn->peer().node_id, std::move(msg));
}

void Daemon::on_node_message(std::uint32_t from, WireMessage&& msg) {
  std::visit(
      [&](auto&& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Heartbeat>) {
          if (m.has_counters) peer_counters_[m.from] = m.counters;
          membership_.on_heartbeat(m);
        } else if constexpr (std::is_same_v<T, ProbeRequest>) {
          membership_.on_probe_request(m, from);
        } else if constexpr (std::is_same_v<T, ProbeAck>) {
          membership_.on_probe_ack(m, from);
        } else if constexpr (std::is_same_v<T, TaskMessage>) {
          if (!ended_jobs_.contains(m.to.job)) router_.route(std::move(m), from);
        } else if constexpr (std::is_same_v<T, CreateTasks>) {
          on_create(m);
        } else if constexpr (std::is_same_v<T, StartJob>) {
          host_.start(m.job);
        } else if constexpr (std::is_same_v<T, ReductionResult>) {
          on_reduction(m, from);
        } else if constexpr (std::is_same_v<T, JobEnd>) {
          on_job_end(m.job);
        } else if constexpr (std::is_same_v<T, MigrationOffer>) {
          // A job this node has no task of yet: its root may no longer be the node its id names
          // (a deputy took it over before this node joined, so no rollback told us); the
          // source's word is the freshest we have.
          if (m.root != 0 && !host_.job_info(m.task.job)) locations_.set_home(m.task.job, m.root);
          migration_.on_offer(m, from);
        } else if constexpr (std::is_same_v<T, MigrationAnswer>) {
          migration_.on_answer(m, from);
        } else if constexpr (std::is_same_v<T, MigrationChunk>) {
          migration_.on_chunk(ChunkView{m.task, m.epoch, m.index, m.bytes}, from);
        } else if constexpr (std::is_same_v<T, MigrationDone>) {
          migration_.on_done(m, from);
        } else if constexpr (std::is_same_v<T, LocationUpdate>) {
          on_location_update(m);
        } else if constexpr (std::is_same_v<T, LocationQuery>) {
          router_.on_location_query(m, from);
        } else if constexpr (std::is_same_v<T, MigrateCommand>) {
          migration_.on_command(m);
        } else if constexpr (std::is_same_v<T, MigrationReport>) {
          on_migration_report(m);
        } else if constexpr (std::is_same_v<T, TaskListRequest>) {
          send_to_node(from, task_list(m.request));
        } else if constexpr (std::is_same_v<T, TaskListReply>) {
          task_lists_.on_reply(m);
        } else if constexpr (std::is_same_v<T, TasksCreated>) {
          coordinator_.on_tasks_created(m);
        } else if constexpr (std::is_same_v<T, ReductionContribution>) {
          coordinator_.on_contribution(m);
        } else if constexpr (std::is_same_v<T, TaskFinished>) {
          coordinator_.on_task_finished(m);
        } else if constexpr (std::is_same_v<T, JobFailed>) {
          coordinator_.on_task_failed(from, m);
        } else if constexpr (std::is_same_v<T, BalanceRequest>) {
          balancer_.on_request(m);
        } else if constexpr (std::is_same_v<T, GrainRequest>) {
          coordinator_.on_grain_request(m);
        } else if constexpr (std::is_same_v<T, BalanceReservation>) {
          migration_.on_reservation(m, from);
        } else if constexpr (std::is_same_v<T, CheckpointCopy>) {
          if (!ended_jobs_.contains(m.task.job)) recovery_.on_copy(std::move(m), from);
        } else if constexpr (std::is_same_v<T, JobEnded>) {
          coordinator_.on_ended(m);
        } else if constexpr (std::is_same_v<T, JobForget>) {
          coordinator_.on_forget_from(from, m);
        } else if constexpr (std::is_same_v<T, CheckpointAck>) {
          const std::uint32_t home = locations_.home(m.task.job);
          if (home != config_.node_id && from == m.buddy && host_.knows_job(m.task.job)) {
            send_to_node(home, m);  // from a copy holder whose root may be stale (on_copy)
          } else {
            coordinator_.on_checkpoint_ack(m);
          }
        } else if constexpr (std::is_same_v<T, CheckpointCommit>) {
          recovery_.on_commit(m);
        } else if constexpr (std::is_same_v<T, JobRollback>) {
          if (ended_jobs_.contains(m.job)) {
            // Nothing to restore here is no obstacle; tasks to restore are.
            send_to_node(m.root, RollbackReady{m.job, m.generation, config_.node_id,
                                               m.restore.empty(), "the job has ended here"});
          } else {
            recovery_.on_rollback(m);
          }
        } else if constexpr (std::is_same_v<T, RollbackReady>) {
          coordinator_.on_rollback_ready(m);
        } else if constexpr (std::is_same_v<T, JobResume>) {
          recovery_.on_resume(m);
        } else if constexpr (std::is_same_v<T, NodeLeft>) {
          if (m.node == from) coordinator_.on_node_left(m);
          send_to_node(from, NodeLeftAck{m.job});
        } else if constexpr (std::is_same_v<T, NodeLeftAck>) {
          on_left_ack(m.job);
        } else if constexpr (std::is_same_v<T, NodeLeaving>) {
          coordinator_.on_node_leaving(m);
        } else if constexpr (std::is_same_v<T, AppFetch>) {
          binaries_.on_fetch(from, m);
        } else if constexpr (std::is_same_v<T, AppPiece>) {
          binaries_.on_node_piece(from, m);
        } else if constexpr (std::is_same_v<T, AppStored>) {
          binaries_.on_node_stored(from, m);
        } else if constexpr (std::is_same_v<T, WorkerLost>) {
          if (m.node == from) coordinator_.on_worker_lost(m);
        } else if constexpr (std::is_same_v<T, DeputyOrder>) {
          coordinator_.on_deputy_order(m, from);
        } else if constexpr (std::is_same_v<T, CheckpointOffer>) {
          coordinator_.on_checkpoint_offer(m);
        } else if constexpr (std::is_same_v<T, JobRecord>) {
          if (!ended_jobs_.contains(m.job)) coordinator_.on_record(m);
        } else if constexpr (std::is_same_v<T, QueuedJobRecord>) {
          coordinator_.on_queued_record(m);
        } else if constexpr (std::is_same_v<T, JobActivity>) {
          coordinator_.on_activity(m, from);
        } else {
          spdlog::warn("node {} sent a {}, which nodes do not send; ignored", from,
                       to_string(T::kType));
        }
      },
      std::move(msg));
}

namespace {

// What a client may ask for, by role (docs/architecture.md §4): a token of any role may look
// (status, tasks, jobs), ship executables, run jobs and attach to or cancel its own (the
// coordinator checks whose a job is); moving tasks, reclaiming
// or releasing a node and frame faults need an admin; the cluster secret may do everything.
Role needed_role(const WireMessage& msg) {
  if (std::holds_alternative<MigrateRequest>(msg) || std::holds_alternative<OwnerRequest>(msg) ||
      std::holds_alternative<FrameFaultsRequest>(msg)) {
    return Role::kAdmin;
  }
  return Role::kUser;
}

}  // namespace

void Daemon::on_client_message(const ConnectionPtr& conn, WireMessage&& msg) {
  const Principal& who = conn->principal();
  if (const Role need = needed_role(msg); !allows(who.role, need)) {
    const std::string request = to_string(type_of(msg));
    spdlog::info("refused {} from {}: it needs the {} role", request, conn->describe(),
                 to_string(need));
    return conn->send(Refused{request, static_cast<std::uint8_t>(need),
                              request + " needs the " + to_string(need) + " role; token '" +
                                  who.name + "' is a " + to_string(who.role)});
  }
  if (std::holds_alternative<StatusRequest>(msg)) {
    conn->send(status());
  } else if (auto* run = std::get_if<RunRequest>(&msg)) {
    run->spec.runtime["owner"] = who.name;  // whatever the client wrote there
    spdlog::info("{} submitted a {} job ({} tasks)", who.name, run->spec.app, run->spec.tasks);
    coordinator_.submit(std::move(*run), conn);
  } else if (auto* submit = std::get_if<SubmitRequest>(&msg)) {
    submit->spec.runtime["owner"] = who.name;
    spdlog::info("{} submitted a {} job ({} tasks) to run on its own", who.name,
                 submit->spec.app, submit->spec.tasks);
    coordinator_.submit(RunRequest{std::move(submit->spec)}, conn, /*follow=*/false);
  } else if (auto* cancel = std::get_if<JobCancel>(&msg)) {
    coordinator_.on_cancel(conn, *cancel);
  } else if (auto* forget = std::get_if<JobForget>(&msg)) {
    coordinator_.on_forget(conn, *forget);
  } else if (auto* list = std::get_if<JobListRequest>(&msg)) {
    conn->send(coordinator_.list(who, list->all));
  } else if (auto* migrate = std::get_if<MigrateRequest>(&msg)) {
    spdlog::info("{} asked to move task {:#x}:{} to node {}", who.name, migrate->task.job,
                 migrate->task.index, migrate->dest);
    on_migrate_request(conn, *migrate);
  } else if (std::holds_alternative<TasksRequest>(msg)) {
    on_tasks_request(conn);
  } else if (auto* attach = std::get_if<JobAttach>(&msg)) {
    coordinator_.on_attach(conn, *attach);
  } else if (auto* faults = std::get_if<FrameFaultsRequest>(&msg)) {
    on_frame_faults(conn, *faults);
  } else if (auto* offer = std::get_if<AppOffer>(&msg)) {
    binaries_.on_offer(conn, *offer);
  } else if (auto* piece = std::get_if<AppPiece>(&msg)) {
    binaries_.on_client_piece(conn, *piece);
  } else if (auto* owner = std::get_if<OwnerRequest>(&msg)) {
    spdlog::info("{} asked this node to {}", who.name, to_string(owner->action));
    conn->send(owner_.command(owner->action));
  } else {
    conn->close(std::string("refused: a client may not send ") + to_string(type_of(msg)));
  }
}

}  // namespace drift
