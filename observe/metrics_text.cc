// The Prometheus text of a node (metrics_text.h).
#include "observe/metrics_text.h"

#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "observe/status_json.h"

namespace drift {

namespace {

// One family at a time: its # HELP and # TYPE lines, then its samples.
class Exposition {
 public:
  Exposition& family(const char* name, const char* type, const char* help) {
    name_ = name;
    out_ += "# HELP ";
    out_ += name;
    out_ += ' ';
    out_ += help;
    out_ += "\n# TYPE ";
    out_ += name;
    out_ += ' ';
    out_ += type;
    out_ += '\n';
    return *this;
  }
  Exposition& sample(double value, const std::vector<std::pair<const char*, std::string>>& labels = {}) {
    out_ += name_;
    if (!labels.empty()) {
      out_ += '{';
      for (std::size_t i = 0; i < labels.size(); ++i) {
        if (i > 0) out_ += ',';
        out_ += labels[i].first;
        out_ += "=\"";
        out_ += escape_label(labels[i].second);
        out_ += '"';
      }
      out_ += '}';
    }
    out_ += ' ';
    out_ += number(value);
    out_ += '\n';
    return *this;
  }
  Exposition& gauge(const char* name, const char* help, double value) {
    return family(name, "gauge", help).sample(value);
  }
  Exposition& counter(const char* name, const char* help, double value) {
    return family(name, "counter", help).sample(value);
  }
  std::string take() { return std::move(out_); }

 private:
  static std::string number(double v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
  }
  const char* name_ = "";
  std::string out_;
};

}  // namespace

std::string escape_label(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string metrics_text(const NodeMetrics& m) {
  const MemberInfo& me = m.self.member;
  const LoadIndex& load = m.self.load;
  const NodeCounters& c = m.self.counters;
  Exposition e;
  e.family("drift_node_info", "gauge", "This node: its id, name, architecture and drift version.")
      .sample(1, {{"node", std::to_string(me.node_id)},
                  {"name", me.name},
                  {"arch", me.arch},
                  {"version", m.version}});
  e.gauge("drift_uptime_seconds", "Seconds since this daemon started.", m.uptime_s);
  e.family("drift_members", "gauge", "Members of the cluster this node knows, by state.");
  for (std::uint8_t s = 0; s <= kMemberStateMax; ++s) {
    e.sample(m.members[s], {{"state", member_name(static_cast<MemberState>(s))}});
  }
  e.family("drift_owner_state", "gauge",
           "1 for the state this machine's owner has put it in, 0 for the others.");
  for (std::uint8_t s = 0; s <= kOwnerStateMax; ++s) {
    const auto state = static_cast<OwnerState>(s);
    e.sample(load.owner == state ? 1 : 0, {{"state", owner_name(state)}});
  }
  e.gauge("drift_tasks_hosted", "Tasks this node hosts.", load.task_count);
  e.gauge("drift_node_task_load", "The load of the tasks hosted here, in drift's load units.",
          load.task_load);
  e.gauge("drift_node_capacity", "Load units per second this node processes, as it advertises.",
          load.capacity);
  e.gauge("drift_node_utilization_seconds",
          "Seconds of this machine one step of the hosted load takes (load / capacity).",
          load.utilization);
  e.gauge("drift_node_step_floor_seconds",
          "Seconds a step takes here beyond load / capacity while the node holds work: the CPU "
          "a step costs besides computing, at this node's share of the CPU.",
          load.step_floor);
  e.gauge("drift_node_load_average", "1-minute load average of the whole machine.",
          load.load_average);
  e.gauge("drift_node_free_memory_bytes", "Memory available on this machine.",
          static_cast<double>(load.free_memory_bytes));
  e.gauge("drift_worker_processes", "Worker processes running applications' tasks here.",
          m.worker_processes);
  e.family("drift_jobs", "gauge", "Jobs rooted at this node, by state.")
      .sample(m.jobs_running, {{"state", "running"}})
      .sample(m.jobs_queued, {{"state", "queued"}});
  e.gauge("drift_checkpoint_copies", "Checkpoint copies of tasks this node holds.",
          static_cast<double>(m.checkpoint_copies));
  e.gauge("drift_checkpoint_bytes", "Bytes of the checkpoint copies this node holds.",
          static_cast<double>(m.checkpoint_bytes));
  e.counter("drift_checkpoint_copies_kept_total",
            "Checkpoint copies this node kept (its own tasks' and its neighbours').",
            static_cast<double>(m.copies_kept));
  e.counter("drift_checkpoint_kept_bytes_total", "Bytes of the checkpoint copies this node kept.",
            static_cast<double>(m.copies_kept_bytes));
  e.counter("drift_checkpoints_committed_total",
            "Checkpoints of jobs rooted here committed (every task saved twice).",
            static_cast<double>(m.checkpoints_committed));
  e.family("drift_jobs_ended_total", "counter", "Jobs rooted here that ended, by how.")
      .sample(static_cast<double>(m.jobs_done), {{"outcome", "done"}})
      .sample(static_cast<double>(m.jobs_failed), {{"outcome", "failed"}})
      .sample(static_cast<double>(m.jobs_cancelled), {{"outcome", "cancelled"}});
  e.counter("drift_recoveries_total", "Rollbacks of jobs rooted here after a failure.",
            static_cast<double>(m.recoveries));
  e.counter("drift_steps_recomputed_total", "Steps jobs rooted here did again after rollbacks.",
            static_cast<double>(m.steps_recomputed));
  e.counter("drift_migrations_out_total", "Tasks that migrated away from this node.",
            static_cast<double>(c.migrations_out));
  e.counter("drift_migrations_in_total", "Tasks that migrated to this node.",
            static_cast<double>(c.migrations_in));
  e.counter("drift_migration_sent_bytes_total", "Bytes of task state this node sent away.",
            static_cast<double>(c.bytes_moved));
  e.counter("drift_messages_forwarded_total",
            "Messages this node passed on to tasks that had moved.",
            static_cast<double>(c.messages_forwarded));
  e.counter("drift_location_updates_sent_total",
            "Updates of a task's place this node sent to senders.",
            static_cast<double>(c.location_updates));
  e.counter("drift_heartbeat_sent_bytes_total", "Bytes of heartbeat frames this node sent.",
            static_cast<double>(c.heartbeat_bytes));
  e.counter("drift_heartbeat_received_bytes_total",
            "Bytes of heartbeat frames this node received.",
            static_cast<double>(m.heartbeat_received_bytes));
  e.counter("drift_heartbeats_received_total", "Heartbeats this node received.",
            static_cast<double>(c.heartbeats_received));
  e.counter("drift_heartbeats_late_total",
            "Heartbeats that came more than two intervals after the peer's previous one.",
            static_cast<double>(c.late_heartbeats));
  e.gauge("drift_heartbeat_longest_gap_seconds",
          "The longest time between two heartbeats of one peer, so far.",
          static_cast<double>(c.longest_gap_ms) / 1000);
  e.counter("drift_balance_sent_bytes_total", "Bytes of balancing messages this node sent.",
            static_cast<double>(c.balance_bytes));
  e.counter("drift_balance_received_bytes_total",
            "Bytes of balancing messages (requests, reservations) this node received.",
            static_cast<double>(m.balance_received_bytes));
  e.counter("drift_balance_rounds_total", "Balancing rounds that moved a task away.",
            static_cast<double>(c.balance_rounds));
  e.counter("drift_balance_moves_total", "Tasks the balancer sent away.",
            static_cast<double>(c.balance_moves));
  e.counter("drift_suspicions_total", "Times this node began to suspect another.",
            static_cast<double>(c.suspicions));
  e.counter("drift_deaths_declared_total", "Times this node saw another declared dead.",
            static_cast<double>(c.deaths_declared));
  e.counter("drift_refutations_total", "Times this node refuted a suspicion of itself.",
            static_cast<double>(c.refutations));
  e.counter("drift_fences_total", "Times this node was declared dead and fenced itself.",
            static_cast<double>(c.fences));
  e.gauge("drift_network_thread_longest_stall_seconds",
          "The longest the network thread went without a round, so far.",
          static_cast<double>(c.longest_stall_ms) / 1000);
  e.family("drift_refused_total", "counter",
           "Connections closed over something refused (admission, TLS handshake, hello, "
           "authentication, a frame) and node messages dropped for naming another sender, by "
           "reason.");
  if (m.refused.empty()) {
    e.sample(static_cast<double>(c.refused), {{"reason", "any"}});
  } else {
    for (const auto& [reason, count] : m.refused) {
      e.sample(static_cast<double>(count), {{"reason", reason}});
    }
  }
  e.counter("drift_http_requests_total", "Requests this HTTP endpoint answered.",
            static_cast<double>(m.http_requests));
  return e.take();
}

}  // namespace drift
