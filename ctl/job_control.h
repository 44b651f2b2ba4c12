// Jobs that outlive driftctl (docs/architecture.md §6.6), the client's side: submitting a job
// without following it, every member's list of the jobs it is root of, and finding one job's
// root among them (for attach, cancel and result).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ctl/client_connection.h"
#include "protocol/messages.h"

namespace drift::ctl {

// SubmitRequest, answered with JobAccepted; a job that can never start is an error with its
// reason. The notices that come first (`notices`, if given) say, e.g., that it waits in the
// root's queue and why.
Result<JobAccepted> submit_job(ClientConnection& connection, const JobSpec& spec,
                               Clock::time_point deadline,
                               std::vector<JobNotice>* notices = nullptr);

struct ClusterJobs {
  // Every member's, by job id, once each: an ended job's deputy lists it too (as its root's).
  std::vector<JobEntry> jobs;
  std::map<std::uint64_t, std::vector<std::uint32_t>> holders;  // the members that list each
  std::vector<MemberInfo> members;      // the cluster as the first node listed it
  std::vector<std::string> unreachable; // "node 3 (127.0.0.1:7402): timed out"
};

// Asks the node `options` names for the members, then every member that is not dead for its
// jobs (only the asker's own unless `all`).
Result<ClusterJobs> cluster_jobs(const ConnectOptions& options, bool all,
                                 std::chrono::milliseconds timeout);

// The job with id `job` and the address of the member to ask about it: its root, or when the
// root no longer lists it (it died after the job ended), its deputy; an error naming the id if
// no member has it.
struct FoundJob {
  JobEntry entry;
  ConnectOptions root;  // `options` aimed at the job's root (or the deputy keeping its end)
  std::vector<MemberInfo> members;
};
Result<FoundJob> find_job(const ConnectOptions& options, std::uint64_t job,
                          std::chrono::milliseconds timeout);

// JobCancel to the job's root; the end it answers with (JobFailed "cancelled by …").
Result<JobFailed> cancel_job(const FoundJob& found, Clock::time_point deadline);

// JobForget to the member keeping the ended job's end (its root, or its deputy): the end is
// gone from every member once this returns ok.
Status forget_job(const FoundJob& found, Clock::time_point deadline);

}  // namespace drift::ctl
