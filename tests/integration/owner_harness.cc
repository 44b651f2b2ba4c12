#include "tests/integration/owner_harness.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>

#include "ctl/status_query.h"
#include "tests/integration/poll.h"

namespace drift::test {

std::vector<std::string> owner_args(const std::string& policy,
                                    const std::filesystem::path& activity_file,
                                    const std::vector<std::string>& more) {
  const std::vector<std::string> defaults = {"--owner.policy=" + policy,
                                             "--owner.activity_file=" + activity_file.string(),
                                             "--owner.sessions=false",
                                             "--owner.input_devices=false",
                                             "--owner.load=false",
                                             "--owner.poll_ms=100"};
  // A key may be given once on a command line: one in `more` replaces the default.
  auto key = [](const std::string& arg) { return arg.substr(0, arg.find('=')); };
  std::vector<std::string> args;
  for (const auto& d : defaults) {
    if (std::none_of(more.begin(), more.end(), [&](const auto& m) { return key(m) == key(d); })) {
      args.push_back(d);
    }
  }
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

void touch_now(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0) << "cannot open " << file;
  EXPECT_EQ(::futimens(fd, nullptr), 0) << "cannot touch " << file;
  ::close(fd);
}

Result<NodeStatus> own_status(const ctl::ConnectOptions& options, std::uint32_t id) {
  auto reply = ctl::query_status(options, std::chrono::seconds(2));
  if (!reply) return reply.status();
  const NodeStatus* n = ctl::find_node(*reply, id);
  if (!n) return Status::error("node " + std::to_string(id) + " is not in its own status");
  return *n;
}

bool wait_for_owner_state(const ctl::ConnectOptions& options, std::uint32_t id, OwnerState state,
                          std::chrono::milliseconds timeout, bool empty) {
  return poll_until(timeout, std::chrono::milliseconds(20), [&] {
    auto n = own_status(options, id);
    return n && n->load.owner == state && (!empty || n->load.task_count == 0);
  });
}

}  // namespace drift::test
