#include "node/net/thread_time.h"

#include "node/machine/cpu_quota.h"
#include "node/machine/proc_file.h"

namespace drift {

namespace {

long long ms(std::chrono::nanoseconds d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

}  // namespace

StallAccount::StallAccount(std::string cgroup_root) {
  auto group = cpu_cgroup_dir(cgroup_root);
  if (group && group->dir != group->mount) cpu_stat_ = group->dir + "/cpu.stat";
}

std::optional<std::chrono::nanoseconds> StallAccount::read_throttled() const {
  if (cpu_stat_.empty()) return std::nullopt;
  auto text = read_text(cpu_stat_);
  if (!text) return std::nullopt;
  return parse_throttled(*text);
}

std::string StallAccount::sample() {
  auto thread = read_thread_time();
  auto throttled = read_throttled();
  std::string out;
  auto add = [&out](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
  if (thread && last_thread_) {
    add("ran " + std::to_string(ms(thread->ran - last_thread_->ran)) + " ms");
    add("waited " + std::to_string(ms(thread->waited - last_thread_->waited)) + " ms for a CPU");
  }
  if (throttled && last_throttled_) {
    add("cgroup throttled " + std::to_string(ms(*throttled - *last_throttled_)) + " ms");
  }
  last_thread_ = thread;
  last_throttled_ = throttled;
  return out;
}

}  // namespace drift
