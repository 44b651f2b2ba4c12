// driftctl tasks: asks every live node for its tasks and forwarding counts and merges the
// replies into one list, answering the client when all replied or the deadline passed.
// Network thread only.
#pragma once

#include <asio.hpp>

#include <map>
#include <memory>
#include <set>

#include "node/net/peer_connection.h"
#include "protocol/messages.h"

namespace drift {

class TaskListQuery {
 public:
  explicit TaskListQuery(asio::io_context& io) : io_(io) {}

  // Returns the request id to send in TaskListRequest to each of `nodes`.
  std::uint64_t begin(const ConnectionPtr& client, std::set<std::uint32_t> nodes);
  void on_reply(const TaskListReply& reply);

 private:
  struct Pending {
    ConnectionPtr client;
    std::set<std::uint32_t> waiting;
    std::map<TaskId, TaskInfo> tasks;
    std::unique_ptr<asio::steady_timer> deadline;
  };
  void answer(std::uint64_t request);

  asio::io_context& io_;
  std::map<std::uint64_t, Pending> pending_;
  std::uint64_t next_ = 0;
};

}  // namespace drift
