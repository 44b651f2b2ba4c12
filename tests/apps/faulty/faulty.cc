// faulty: a test application that misbehaves on purpose, so the integration tests can check what
// a worker's crash, hang or hunger for memory does to a job and to the daemons. Every task does
// `--work` microseconds of busy work per step and contributes {1}; after the last step it
// finishes with a digest of (task, steps), so the job's checksum equals the serial reference's
// when nothing goes wrong. At step `--at` task `--task` (default 0) does what `--do` says:
// crash (SIGSEGV), hang (sleeps for ever in its handler), grow (allocates and
// touches `--grow-mb` MiB, and keeps it), unloadable (its state, saved at step `--at` or later,
// throws when it is loaded: after a move, or from a checkpoint), short-load (the same, but its
// load reads one field less than its save wrote instead of throwing), no-finish (task `--task`
// never calls finish after the last step; `--at` is not used), or nothing. With `--once FILE`
// it does so only if FILE does not exist yet, and makes it first (a machine-wide "only the first
// time"). It writes a line to stderr first, which the daemon copies into its log and into the
// job's error.
#include <drift/app.h>
#include <drift/app_main.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

// Under AddressSanitizer or ThreadSanitizer (the sanitizer builds' tests) a SIGSEGV would become
// a report and an exit status; this app's crash must reach its daemon as the signal a real crash
// is. Other builds never call them.
extern "C" const char* __asan_default_options() { return "handle_segv=0"; }
extern "C" const char* __tsan_default_options() { return "handle_segv=0"; }

namespace {

struct Params {
  std::uint64_t work_us = 500;
  std::uint64_t at = 0;  // 0: never
  std::uint32_t task = 0;
  std::string action = "nothing";
  std::uint64_t grow_mb = 0;
  std::string once;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(work_us, at, task, action, grow_mb, once);
  }
};

drift::Result<std::uint64_t> number(const drift::JobSpec& spec, const std::string& key,
                                    std::uint64_t fallback) {
  auto it = spec.params.find(key);
  if (it == spec.params.end()) return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(it->second.c_str(), &end, 10);
  if (it->second.empty() || *end) return drift::Status::error(key + " = '" + it->second + "'");
  return v;
}

drift::Result<Params> read(const drift::JobSpec& spec) {
  Params p;
  for (const auto& [key, value] : spec.params) {
    if (key != "work" && key != "at" && key != "task" && key != "do" && key != "grow-mb" &&
        key != "once") {
      return drift::Status::error("unknown option --" + key);
    }
  }
  auto work = number(spec, "work", p.work_us), at = number(spec, "at", 0),
       task = number(spec, "task", 0), grow = number(spec, "grow-mb", 0);
  if (!work || !at || !task || !grow) return drift::Status::error("a bad number");
  p.work_us = *work;
  p.at = *at;
  p.task = static_cast<std::uint32_t>(*task);
  p.grow_mb = *grow;
  if (auto it = spec.params.find("do"); it != spec.params.end()) p.action = it->second;
  if (p.action != "nothing" && p.action != "crash" && p.action != "hang" && p.action != "grow" &&
      p.action != "unloadable" && p.action != "short-load" && p.action != "no-finish" &&
      p.action != "bad-send") {
    return drift::Status::error("do = '" + p.action +
                                "': crash, hang, grow, unloadable, short-load, no-finish, "
                                "bad-send or nothing");
  }
  if (auto it = spec.params.find("once"); it != spec.params.end()) p.once = it->second;
  return p;
}

std::uint64_t digest(std::uint32_t task, std::uint64_t steps) {
  return (std::uint64_t{task} + 1) * 0x9e3779b97f4a7c15ULL ^ steps;
}

// The first to make FILE is the one that misbehaves.
bool first_time(const std::string& file) {
  if (file.empty()) return true;
  const int fd = ::open(file.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

std::vector<std::vector<char>> g_hoard;  // what `grow` keeps

class FaultyTask final : public drift::SerializableTask<FaultyTask> {
 public:
  FaultyTask(Params p, std::uint32_t index, std::uint64_t steps)
      : p_(std::move(p)), index_(index), steps_(steps) {}

  void start(drift::Context& ctx) override {
    if (started_) return;
    started_ = true;
    step(ctx);
  }
  void receive(drift::Context& ctx, drift::Message&&) override { ctx.fail("faulty gets no messages"); }
  void reduced(drift::Context& ctx, std::uint64_t s, const std::vector<double>&) override {
    if (s != step_) return ctx.fail("a reduction out of order");
    if (++step_ == steps_) {
      if (p_.action == "no-finish" && index_ == p_.task) return;  // a task that forgets to
      return ctx.finish(drift::encode_portable(digest(index_, steps_)));
    }
    step(ctx);
  }
  double load() const override { return 1.0 + static_cast<double>(p_.work_us); }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(p_, index_, steps_, step_);
    bool short_load = false;
    if constexpr (Archive::is_loading::value) {
      short_load = p_.action == "short-load" && index_ == p_.task && step_ >= p_.at && p_.at > 0 &&
                   first_time(p_.once);
    }
    if (!short_load) ar(started_);
    if constexpr (Archive::is_loading::value) {
      if (p_.action == "unloadable" && index_ == p_.task && step_ >= p_.at && p_.at > 0 &&
          first_time(p_.once)) {
        std::fprintf(stderr, "faulty: task %u does not load at step %llu on purpose\n", index_,
                     static_cast<unsigned long long>(step_));
        std::fflush(stderr);
        throw std::runtime_error("faulty: task " + std::to_string(index_) +
                                 " does not load on purpose");
      }
    }
  }

 private:
  void step(drift::Context& ctx) {
    const bool in_step = p_.action != "nothing" && p_.action != "unloadable" &&
                         p_.action != "short-load" && p_.action != "no-finish";
    if (in_step && step_ == p_.at && index_ == p_.task && first_time(p_.once)) {
      if (p_.action == "bad-send") ctx.send(drift::TaskId{ctx.self().job, index_ + 1000}, 1, {});
      misbehave();
    }
    ctx.compute(static_cast<double>(p_.work_us), [this] {
      const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(p_.work_us);
      while (std::chrono::steady_clock::now() < until) {
      }
    });
    ctx.contribute(step_, {1.0});
  }

  void misbehave() {
    std::fprintf(stderr, "faulty: task %u does '%s' at step %llu on purpose\n", index_,
                 p_.action.c_str(), static_cast<unsigned long long>(step_));
    std::fflush(stderr);
    if (p_.action == "crash") {
      std::raise(SIGSEGV);  // a real crash in any build (a sanitizer would report a null store)
    } else if (p_.action == "hang") {
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    } else if (p_.action == "grow") {
      for (std::uint64_t mb = 0; mb < p_.grow_mb; ++mb) {
        g_hoard.emplace_back(1u << 20);
        std::memset(g_hoard.back().data(), 1, g_hoard.back().size());
      }
    }
  }

  Params p_;
  std::uint32_t index_ = 0;
  std::uint64_t steps_ = 0;
  std::uint64_t step_ = 0;
  bool started_ = false;
};

class FaultyApp final : public drift::Application {
 public:
  std::string name() const override { return "faulty"; }
  std::vector<std::string> option_help() const override {
    return {"--work US  busy microseconds per task and step (default 500)",
            "--at STEP  the step the task misbehaves at (default 0: never)",
            "--task N  the task that misbehaves (default 0)",
            "--do WHAT  crash, hang, grow, unloadable, short-load, no-finish, bad-send (to task "
            "TASK+1000) or nothing (default nothing)",
            "--grow-mb MB  what grow allocates (default 0)",
            "--once FILE  misbehave only if FILE does not exist yet (and make it)"};
  }
  drift::Status validate(drift::JobSpec& spec) const override {
    if (spec.tasks == 0) spec.tasks = 2;
    if (spec.steps == 0) spec.steps = 20;
    return read(spec).status();
  }
  std::unique_ptr<drift::Task> create_task(const drift::JobSpec& spec,
                                           std::uint32_t index) const override {
    auto p = read(spec);
    if (!p) return nullptr;
    return std::make_unique<FaultyTask>(*p, index, spec.steps);
  }
  std::vector<drift::ReduceOp> reduction_ops() const override { return {drift::ReduceOp::kSum}; }
  drift::Result<drift::JobOutcome> combine(
      const drift::JobSpec& spec,
      const std::vector<std::vector<std::uint8_t>>& results) const override {
    std::uint64_t sum = 0;
    for (const auto& r : results) {
      std::uint64_t d = 0;
      if (!drift::decode_portable(r, d)) return drift::Status::error("a result does not decode");
      sum ^= d;
    }
    return outcome(sum, spec);
  }
  drift::Result<drift::JobOutcome> run_serial(const drift::JobSpec& spec) const override {
    std::uint64_t sum = 0;
    for (std::uint32_t t = 0; t < spec.tasks; ++t) sum ^= digest(t, spec.steps);
    return outcome(sum, spec);
  }

 private:
  static drift::JobOutcome outcome(std::uint64_t sum, const drift::JobSpec& spec) {
    char text[32];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(sum));
    return drift::JobOutcome{text, {{"tasks", std::to_string(spec.tasks)}}};
  }
};

}  // namespace

int main(int argc, char** argv) { return drift::app_main<FaultyApp>(argc, argv); }
