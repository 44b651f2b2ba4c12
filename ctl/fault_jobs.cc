// Running the scenario's jobs during a fault run (fault_jobs.h).
#include "ctl/fault_jobs.h"

#include "ctl/status_query.h"

#include <cstdio>

#include "ctl/job_client.h"
#include "ctl/job_executables.h"

namespace drift::ctl {

FaultJobs::FaultJobs(const LocalCluster& cluster, std::vector<JobRecord> plans, double duration_s,
                     Clock::time_point t0)
    : cluster_(cluster), plans_(std::move(plans)), duration_s_(duration_s), t0_(t0) {}

FaultJobs::~FaultJobs() { join(); }

void FaultJobs::start() {
  thread_ = std::thread([this] { run_all(); });
}

void FaultJobs::join() {
  if (thread_.joinable()) thread_.join();
}

FaultJobs::Now FaultJobs::now() const {
  std::lock_guard lock(mutex_);
  return now_;
}

std::vector<JobRecord> FaultJobs::records() const {
  std::lock_guard lock(mutex_);
  return records_;
}

double FaultJobs::since_t0() const {
  return std::chrono::duration<double>(Clock::now() - t0_).count();
}

// With a duration, a job's submit daemon that is down (killed, not yet restarted) is waited
// for, rather than counted as one failed job after another.
bool FaultJobs::wait_reachable(int k) const {
  constexpr auto kRetry = std::chrono::milliseconds(250);
  for (;;) {
    if (since_t0() >= duration_s_) return false;
    auto connect = cluster_.connect_options(k);
    if (connect && ClientConnection::open(*connect)) return true;
    std::this_thread::sleep_for(kRetry);
  }
}

void FaultJobs::run_all() {
  for (std::size_t i = 0;; ++i) {
    if (duration_s_ <= 0 ? i >= plans_.size() : since_t0() >= duration_s_) break;
    const JobRecord& next = plans_[i % plans_.size()];
    if (duration_s_ > 0 && !wait_reachable(next.plan.submit_to)) break;
    run_one(next);
  }
  std::lock_guard lock(mutex_);
  now_.job = -1;
  now_.done = true;
}

void FaultJobs::run_one(JobRecord record) {
  const JobPlan& plan = record.plan;
  {
    std::lock_guard lock(mutex_);
    now_ = Now{static_cast<int>(records_.size()), 0, plan.submit_to, false};
  }
  record.submitted_s = since_t0();
  const auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<long>(plan.timeout_s * 1000));
  JobSpec spec = job_spec(plan.app_name, plan.tasks, plan.steps, plan.params);
  auto connect = cluster_.connect_options(plan.submit_to);
  Result<JobEndMessage> end = connect.status();
  if (connect) {
    connect->connect_timeout = connect->handshake_timeout = std::chrono::seconds(5);
    auto connection = ClientConnection::open(*connect);
    // The members, so that the job is followed to its new root if the root dies.
    Reattach reattach{*connect, {}};
    if (connection) {
      if (auto members = query_status(**connection, std::chrono::seconds(5))) {
        for (const NodeStatus& n : members->nodes) reattach.members.push_back(n.member);
      }
    }
    if (connection && !plan.executable.empty()) {  // the user's own: shipped, as run PATH does
      Status shipped = Status::ok();
      auto executables = job_executables(plan.executable, {});
      if (!executables) shipped = executables.status();
      if (shipped) {
        shipped = upload_executables(**connection, *executables, 1u << 20, std::chrono::seconds(120));
      }
      if (shipped) add_to_spec(spec, *executables);
      if (!shipped) connection = Status::error(plan.app + ": " + shipped.message());
    }
    end = connection ? run_job(**connection, spec,
                               [&](const JobProgress& p) {
                                 std::lock_guard lock(mutex_);
                                 record.id = now_.job_id = p.job;
                                 now_.step = record.steps_done = p.step;
                               },
                               deadline,
                               [&](const JobNotice& n) {
                                 std::lock_guard lock(mutex_);
                                 record.notices.push_back(
                                     {since_t0(), static_cast<std::uint8_t>(n.kind), n.node, n.step,
                                      n.steps_recomputed, n.recovery_s, n.text});
                               },
                               &reattach)
                     : Result<JobEndMessage>(connection.status());
  }
  record.wall_s = since_t0() - record.submitted_s;
  if (!end) {
    const bool timed_out = Clock::now() >= deadline;
    record.end = timed_out ? JobRecord::End::kTimedOut : JobRecord::End::kLost;
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g s", plan.timeout_s);
    record.reason =
        timed_out ? "no result within timeout = " + std::string(limit) + " (" + end.error() + ")"
                  : end.error();
  } else if (auto* failed = std::get_if<JobFailed>(&*end)) {
    record.end = JobRecord::End::kFailed;
    record.id = failed->job;
    record.reason = failed->reason;
  } else {
    const auto& result = std::get<JobResult>(*end);
    record.end = JobRecord::End::kFinished;
    record.id = result.job;
    record.checksum = result.checksum;
    record.steps_done = result.steps;
    record.recoveries = result.recoveries;
    record.steps_recomputed = result.steps_recomputed;
  }
  std::lock_guard lock(mutex_);
  records_.push_back(std::move(record));
  now_.job = -1;
}

}  // namespace drift::ctl
