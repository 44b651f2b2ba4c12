#include "node/tasks/task_list_query.h"

namespace drift {

std::uint64_t TaskListQuery::begin(const ConnectionPtr& client, std::set<std::uint32_t> nodes) {
  std::uint64_t id = ++next_;
  Pending p;
  p.client = client;
  p.waiting = std::move(nodes);
  p.deadline = std::make_unique<asio::steady_timer>(io_, std::chrono::seconds(2));
  p.deadline->async_wait([this, id](std::error_code ec) {
    if (!ec) answer(id);
  });
  pending_.emplace(id, std::move(p));
  return id;
}

void TaskListQuery::on_reply(const TaskListReply& reply) {
  auto it = pending_.find(reply.request);
  if (it == pending_.end()) return;
  Pending& p = it->second;
  for (const TaskInfo& t : reply.tasks) {
    TaskInfo& merged = p.tasks[t.task];
    merged.task = t.task;
    merged.forwarded += t.forwarded;
    if (t.node != 0 && t.epoch >= merged.epoch) {  // a host entry; the newest move wins
      merged.node = t.node;
      merged.epoch = t.epoch;
      merged.load = t.load;
    }
  }
  p.waiting.erase(reply.node);
  if (p.waiting.empty()) answer(reply.request);
}

void TaskListQuery::answer(std::uint64_t request) {
  auto it = pending_.find(request);
  if (it == pending_.end()) return;
  TasksReply reply;
  for (auto& [id, info] : it->second.tasks) {
    if (info.node != 0) reply.tasks.push_back(info);  // pointers of finished tasks are noise
  }
  if (it->second.client && !it->second.client->closed()) it->second.client->send(reply);
  it->second.deadline->cancel();
  pending_.erase(it);
}

}  // namespace drift
