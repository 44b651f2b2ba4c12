#include "ctl/job_control.h"

#include <algorithm>
#include <functional>
#include <future>
#include <utility>

#include "ctl/status_query.h"
#include "ctl/task_id_text.h"
#include "protocol/codec.h"

namespace drift::ctl {

namespace {

std::string unexpected(const ClientConnection& connection, const WireMessage& msg,
                       const char* while_doing) {
  return connection.address() + " sent " + to_string(type_of(msg)) + " " + while_doing;
}

// One member's JobListReply, or why it could not be had; connecting and the handshake are
// bounded by `timeout` too, so a member that is stopped (its kernel still accepts) costs no more.
Result<JobListReply> ask_member(ConnectOptions to, const MemberInfo& member, bool all,
                                std::chrono::milliseconds timeout) {
  auto at = parse_endpoint(member.address);
  if (!at) return at.status();
  to.node = *at;
  to.connect_timeout = std::min(to.connect_timeout, timeout);
  to.handshake_timeout = std::min(to.handshake_timeout, timeout);
  auto connection = ClientConnection::open(to);
  if (!connection) return connection.status();
  if (Status s = (*connection)->send(JobListRequest{all}); !s) return s;
  auto reply = (*connection)->receive(Clock::now() + timeout);
  if (!reply) return reply.status();
  auto* list = std::get_if<JobListReply>(&*reply);
  if (!list) return Status::error(unexpected(**connection, *reply, "for JobListRequest"));
  return std::move(*list);
}

}  // namespace

Result<JobAccepted> submit_job(ClientConnection& connection, const JobSpec& spec,
                               Clock::time_point deadline, std::vector<JobNotice>* notices) {
  if (Status s = connection.send(SubmitRequest{spec}); !s) return s;
  for (;;) {
    auto msg = connection.receive(deadline);
    if (!msg) return msg.status();
    if (auto* accepted = std::get_if<JobAccepted>(&*msg)) return *accepted;
    if (auto* failed = std::get_if<JobFailed>(&*msg)) {
      return Status::error("job (" + spec.app + ") failed: " + failed->reason);
    }
    if (auto* notice = std::get_if<JobNotice>(&*msg)) {  // it waits in the queue
      if (notices) notices->push_back(*notice);
      continue;
    }
    return Status::error(unexpected(connection, *msg, "for a submitted job"));
  }
}

Result<ClusterJobs> cluster_jobs(const ConnectOptions& options, bool all,
                                 std::chrono::milliseconds timeout) {
  auto status = query_status(options, timeout);
  if (!status) return status.status();
  ClusterJobs out;
  // Every member at once: one that does not answer costs the timeout once, not once each.
  std::vector<std::pair<const MemberInfo*, std::future<Result<JobListReply>>>> asks;
  for (const NodeStatus& n : status->nodes) {
    out.members.push_back(n.member);
    if (n.member.state == MemberState::kDead) continue;
    asks.emplace_back(&n.member, std::async(std::launch::async, ask_member, options,
                                            std::cref(n.member), all, timeout));
  }
  for (auto& [member, ask] : asks) {
    auto list = ask.get();
    if (!list) {
      out.unreachable.push_back("node " + std::to_string(member->node_id) + " (" +
                                member->address + "): " + list.error());
      continue;
    }
    for (JobEntry& e : list->jobs) {
      out.holders[e.job].push_back(list->node);
      out.jobs.push_back(std::move(e));
    }
  }
  // One entry per job: a running job's root is the only one to list it; an ended one's root
  // and deputy list the same end.
  std::stable_sort(out.jobs.begin(), out.jobs.end(),
                   [](const JobEntry& a, const JobEntry& b) { return a.job < b.job; });
  out.jobs.erase(std::unique(out.jobs.begin(), out.jobs.end(),
                             [](const JobEntry& a, const JobEntry& b) { return a.job == b.job; }),
                 out.jobs.end());
  return out;
}

Result<FoundJob> find_job(const ConnectOptions& options, std::uint64_t job,
                          std::chrono::milliseconds timeout) {
  auto all = cluster_jobs(options, true, timeout);
  if (!all) return all.status();
  for (const JobEntry& e : all->jobs) {
    if (e.job != job) continue;
    const auto& holders = all->holders[job];
    const bool root_has_it = std::find(holders.begin(), holders.end(), e.root) != holders.end();
    const std::uint32_t ask = root_has_it || holders.empty() ? e.root : holders.front();
    for (const MemberInfo& m : all->members) {
      if (m.node_id != ask) continue;
      auto at = parse_endpoint(m.address);
      if (!at) return at.status();
      FoundJob found{e, options, all->members};
      found.root.node = *at;
      return found;
    }
  }
  std::string why = "no member has job " + format_job_id(job) +
                    " (running, or ended within jobs.keep_results)";
  if (!all->unreachable.empty()) why += "; could not ask " + all->unreachable.front();
  return Status::error(why);
}

Result<JobFailed> cancel_job(const FoundJob& found, Clock::time_point deadline) {
  auto connection = ClientConnection::open(found.root);
  if (!connection) return connection.status();
  if (Status s = (*connection)->send(JobCancel{found.entry.job}); !s) return s;
  auto reply = (*connection)->receive(deadline);
  if (!reply) return reply.status();
  if (auto* failed = std::get_if<JobFailed>(&*reply)) return *failed;
  if (auto* notice = std::get_if<JobNotice>(&*reply)) return Status::error(notice->text);
  return Status::error(unexpected(**connection, *reply, "for JobCancel"));
}

Status forget_job(const FoundJob& found, Clock::time_point deadline) {
  auto connection = ClientConnection::open(found.root);
  if (!connection) return connection.status();
  if (Status s = (*connection)->send(JobForget{found.entry.job}); !s) return s;
  auto reply = (*connection)->receive(deadline);
  if (!reply) return reply.status();
  if (std::holds_alternative<JobForget>(*reply)) return Status::ok();
  if (auto* failed = std::get_if<JobFailed>(&*reply)) return Status::error(failed->reason);
  if (auto* notice = std::get_if<JobNotice>(&*reply)) return Status::error(notice->text);
  return Status::error(unexpected(**connection, *reply, "for JobForget"));
}

}  // namespace drift::ctl
