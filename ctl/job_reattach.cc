#include "ctl/job_reattach.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <thread>

#include "protocol/codec.h"

namespace drift::ctl {

namespace {

std::optional<Endpoint> address_of(const std::vector<MemberInfo>& members, std::uint32_t id) {
  for (const MemberInfo& m : members) {
    if (m.node_id == id) {
      if (auto ep = parse_endpoint(m.address)) return *ep;
    }
  }
  return std::nullopt;
}

// One JobAttach to `at`: the connection if it is the job's root; otherwise the node it names.
Result<Attached> ask(const Reattach& how, const JobAttach& attach, const Endpoint& at,
                     std::uint32_t* named) {
  ConnectOptions options = how.options;
  options.node = at;
  options.connect_timeout = std::min(options.connect_timeout, std::chrono::milliseconds(1000));
  options.handshake_timeout = std::min(options.handshake_timeout, std::chrono::milliseconds(1000));
  auto connection = ClientConnection::open(options);
  if (!connection) return connection.status();
  if (Status s = (*connection)->send(attach); !s) return s;
  auto reply = (*connection)->receive(Clock::now() + std::chrono::seconds(2));
  if (!reply) return reply.status();
  if (std::holds_alternative<JobResult>(*reply) || std::holds_alternative<JobFailed>(*reply)) {
    return Attached{std::move(connection).value(), {}, std::move(*reply)};
  }
  auto* notice = std::get_if<JobNotice>(&*reply);
  if (!notice) return Status::error(at.to_string() + " sent " + to_string(type_of(*reply)));
  if (notice->kind == JobNoticeKind::kRootChanged) {
    return Attached{std::move(connection).value(), *notice, std::nullopt};
  }
  *named = notice->node;
  return Status::error(notice->text);
}

}  // namespace

Result<Attached> reattach_job(const Reattach& how, std::uint64_t job, const std::string& lost,
                              std::uint64_t steps_seen) {
  const auto deadline = Clock::now() + how.patience;
  std::string last_error = "no member to ask";
  while (Clock::now() < deadline) {
    std::deque<Endpoint> queue;
    for (const MemberInfo& m : how.members) {
      auto ep = parse_endpoint(m.address);
      if (!ep) continue;
      if (ep->to_string() == lost) {
        queue.push_back(*ep);
      } else {
        queue.push_front(*ep);
      }
    }
    std::vector<std::string> asked;
    while (!queue.empty() && Clock::now() < deadline) {
      const Endpoint at = queue.front();
      queue.pop_front();
      if (std::find(asked.begin(), asked.end(), at.to_string()) != asked.end()) continue;
      asked.push_back(at.to_string());
      std::uint32_t named = 0;
      auto attached = ask(how, JobAttach{job, steps_seen}, at, &named);
      if (attached) return attached;
      last_error = at.to_string() + ": " + attached.error();
      if (auto ep = address_of(how.members, named)) queue.push_front(*ep);
    }
    // The deputy may not have noticed the root's death yet: ask again shortly.
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  return Status::error("no node took job over within " +
                       std::to_string(how.patience.count() / 1000) + " s (last: " + last_error +
                       ")");
}

}  // namespace drift::ctl
