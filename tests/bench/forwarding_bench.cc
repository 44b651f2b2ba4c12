// Benchmark (c): forwarded messages per sender after a migration (forwarding_bench.h).
#include "tests/bench/forwarding_bench.h"

#include <optional>

#include "apps/chatter/chatter_params.h"
#include "apps/chatter/chatter_schedule.h"
#include "ctl/job_client.h"
#include "tests/bench/checked_job.h"
#include "tests/bench/control_client.h"
#include "tests/bench/migration_driver.h"

namespace drift::bench {

namespace {

constexpr double kTargetPerSender = 1.0;

struct Forwarding {
  std::uint64_t forwarded = 0;
  std::uint64_t asked_at_step = 0;
};

// Sums `forwarded` over the reply's entries for `task`; an error when none lists it.
Result<std::uint64_t> forwarded_for(const TasksReply& reply, TaskId task) {
  std::uint64_t sum = 0;
  bool listed = false;
  for (const TaskInfo& t : reply.tasks) {
    if (t.task != task) continue;
    listed = true;
    sum += t.forwarded;
  }
  if (!listed) return Status::error("the TasksReply does not list the migrated task");
  return sum;
}

// After the driver's one move, waits `settle` steps, then asks for the forwarding count once.
class ForwardingProbe {
 public:
  ForwardingProbe(ControlClient& control, const MigrationDriver& driver,
                  const ForwardingBenchConfig& config)
      : control_(control), driver_(driver), config_(config) {}

  void on_progress(const JobProgress& p) {
    if (result_ || error_ || !driver_.done() || driver_.error()) return;
    if (p.step < driver_.last_move_step() + config_.settle_steps) return;
    auto reply = control_.tasks(config_.request_timeout);
    auto forwarded = reply ? forwarded_for(*reply, TaskId{driver_.job(), 0})
                           : Result<std::uint64_t>(reply.status());
    if (!forwarded) error_ = forwarded.error();
    if (forwarded) result_ = Forwarding{*forwarded, p.step};
  }
  const std::optional<Forwarding>& result() const { return result_; }
  const std::optional<std::string>& error() const { return error_; }

 private:
  ControlClient& control_;
  const MigrationDriver& driver_;
  const ForwardingBenchConfig& config_;
  std::optional<Forwarding> result_;
  std::optional<std::string> error_;
};

Result<Forwarding> measure(const BenchCluster& cluster, const JobSpec& spec,
                           const ForwardingBenchConfig& config, std::uint64_t& moved_at) {
  auto job_connection = cluster.connect(1);
  auto control_options = cluster.connect_options(1);
  if (!job_connection) return job_connection.status();
  if (!control_options) return control_options.status();
  ControlClient control(*control_options);
  MigrationDriver driver(control,
                         MigrationPlan{0, 1, 1, config.migrate_at_step, 0, config.request_timeout});
  ForwardingProbe probe(control, driver, config);
  auto result = run_checked_job(
      **job_connection, spec,
      [&](const JobProgress& p) {
        driver.on_progress(p);
        probe.on_progress(p);
      },
      config.job_timeout);
  moved_at = driver.last_move_step();
  if (driver.error()) return Status::error(*driver.error());
  if (probe.error()) return Status::error("after the migration: " + *probe.error());
  if (!result) return result.status();
  if (!probe.result()) return Status::error("the job ended before the tasks were listed");
  return *probe.result();
}

}  // namespace

BenchTable run_forwarding_bench(const BenchCluster& cluster, const ForwardingBenchConfig& config) {
  BenchTable table;
  table.title = "(c) Messages forwarded per sender after a migration";
  JobSpec spec = ctl::job_spec("chatter", config.tasks, config.steps,
                               {{"work", std::to_string(config.work_us)}});
  BenchRow row{
      describe_job(spec) + "; task 0 moved node 1 → 2", "", "—", "—", "≤ 1 per sender", ""};
  std::uint64_t moved_at = 0;
  auto fwd = measure(cluster, spec, config, moved_at);
  if (!fwd) {
    table.add_failure(row, fwd.error());
    return table;
  }
  auto params = chatter::parse_params(spec);
  const std::uint32_t senders =
      params ? chatter::sender_count(*params, 0, moved_at, fwd->asked_at_step + 1) : 0;
  const double per_sender = senders ? static_cast<double>(fwd->forwarded) / senders : 0;
  row.drift = format_fixed(per_sender, 2) + " (" + std::to_string(fwd->forwarded) + " / " +
              std::to_string(senders) + " senders)";
  row.met = format_met(per_sender <= kTargetPerSender);
  table.rows.push_back(row);
  table.notes.push_back("moved after step " + std::to_string(moved_at) + ", counted after step " +
                        std::to_string(fwd->asked_at_step) +
                        "; senders = tasks that sent to "
                        "task 0 in between (chatter's schedule)");
  return table;
}

}  // namespace drift::bench
