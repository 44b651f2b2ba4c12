// The share of its CPU quota a node really got (cpu_share.h).
#include "node/machine/cpu_share.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <string>

#include "node/machine/proc_file.h"
#include "node/machine/process_cpu.h"
#include "node/machine/schedstat.h"

namespace drift {

std::optional<double> quota_shortfall_load(double node_cpu_s,
                                           std::span<const double> threads_wanted_s, double wall_s,
                                           double quota) {
  if (!(wall_s > 0) || !(quota > 0)) return std::nullopt;
  // No more than the busy threads could use: one busy thread under a quota of 1.5 cores wants
  // one core, not 1.5. A thread that wanted less (an I/O thread woken by messages) says nothing.
  double busy_cores = 0;
  for (const double wanted : threads_wanted_s) {
    if (wanted >= 0.9 * wall_s) busy_cores += std::min(1.0, wanted / wall_s);
  }
  if (busy_cores == 0) return std::nullopt;
  const double allowed = std::min(quota, busy_cores);
  const double got = node_cpu_s / (allowed * wall_s);
  if (!(got < 0.85)) return 0.0;  // all of it, give or take the accounting and short waits
  return 1 / std::max(got, 0.05) - 1;
}

std::optional<double> next_share_load(std::optional<double> last, std::optional<double> judged) {
  // Smoothed over a few seconds (one second's share is noisy).
  if (judged) return last ? 0.5 * *judged + 0.5 * *last : *judged;
  // Nothing to judge by: workers that wait for messages got what they asked for. The last
  // measurement fades (a fifth a second): kept whole, one taken in a job's start-up burst (a
  // node of the real testbed measured 9.5, then 1.46) held the node's capacity down for good —
  // given fewer tasks, its workers waited for their neighbours and never wanted the CPU enough
  // to be judged again. Before the first there is no shortfall: the load average the caller
  // would use instead counts every other daemon's runnable threads on this machine, and a job
  // whose tasks wait for messages (heat2d's halos) rarely has a second to judge by — as the
  // load average rose, its nodes divided their capacity by 20 one after another.
  return last ? *last * 0.8 : 0.0;
}

namespace {

// Each thread's CPU + wait seconds, by thread id, into `out`.
void read_threads(int pid, std::map<int, double>& out) {
  std::error_code ec;
  // Threads come and go while we look: a vanished one is simply not counted.
  for (std::filesystem::directory_iterator it("/proc/" + std::to_string(pid) + "/task", ec), end;
       !ec && it != end; it.increment(ec)) {
    int tid = 0;
    const std::string name = it->path().filename().string();
    const auto [end_of_tid, bad] = std::from_chars(name.data(), name.data() + name.size(), tid);
    if (bad != std::errc{} || end_of_tid != name.data() + name.size()) continue;
    const auto line = read_text((it->path() / "schedstat").string(), 256);
    if (!line) continue;
    if (auto t = parse_schedstat(*line)) {
      out[tid] = std::chrono::duration<double>(t->ran + t->waited).count();
    }
  }
}

}  // namespace

CpuShareSampler::Totals CpuShareSampler::read(const std::vector<int>& workers) {
  Totals t;
  // Summing its live threads' schedstat instead lost the CPU of a thread that ended inside the
  // interval (a streaming install's pump), and the node seemed to have got nothing.
  t.node_cpu_s = node_cpu_seconds(workers);
  for (int pid : workers) read_threads(pid, t.thread_wanted_s);
  return t;
}

std::vector<double> CpuShareSampler::wanted_between(const Totals& last, const Totals& now) {
  std::vector<double> out;
  out.reserve(now.thread_wanted_s.size());
  for (const auto& [tid, wanted] : now.thread_wanted_s) {
    const auto before = last.thread_wanted_s.find(tid);
    const double since = before == last.thread_wanted_s.end() ? 0 : before->second;
    out.push_back(wanted >= since ? wanted - since : wanted);  // a reused id: a new thread
  }
  return out;
}

std::optional<double> CpuShareSampler::sample(const std::vector<int>& workers, double now_s,
                                              double quota) {
  if (last_at_ && now_s - *last_at_ < 1.0) return load_;
  const Totals now = read(workers);
  // A worker that started or ended inside the interval would count its whole life in it.
  const double cpu = now.node_cpu_s - last_.node_cpu_s;
  // Not judged: an interval in which a worker started or ended (it would count its whole life).
  if (last_at_ && !workers.empty() && workers == last_workers_ && cpu >= 0) {
    load_ = next_share_load(
        load_, quota_shortfall_load(cpu, wanted_between(last_, now), now_s - *last_at_, quota));
  }
  last_at_ = now_s;
  last_ = now;
  last_workers_ = workers;
  return load_;
}

}  // namespace drift
