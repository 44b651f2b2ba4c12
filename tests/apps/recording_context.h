// A Context for task unit tests: records what a task does in its handlers (sends, contributions,
// compute units, finish, failures) instead of doing it. Job 7; one handler at a time.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <drift/context.h>
#include <drift/task.h>

namespace drift::test_support {

class RecordingContext final : public Context {
 public:
  explicit RecordingContext(std::uint32_t index, JobSpec spec = {})
      : index_(index), spec_(std::move(spec)) {}

  TaskId self() const override { return TaskId{kJob, index_}; }
  const JobSpec& job() const override { return spec_; }
  void send(TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload) override {
    sends.push_back(Message{to, tag, std::move(payload)});  // `from` holds the destination
  }
  void contribute(std::uint64_t step, std::vector<double> values) override {
    contributions.emplace_back(step, std::move(values));
  }
  void compute(double units, const std::function<void()>& fn) override {
    work += units;
    fn();
  }
  void finish(std::vector<std::uint8_t> r) override {
    ++finishes;
    result = std::move(r);
  }
  void fail(std::string reason) override { failures.push_back(std::move(reason)); }

  static constexpr std::uint64_t kJob = 7;
  std::vector<Message> sends;
  std::vector<std::pair<std::uint64_t, std::vector<double>>> contributions;
  double work = 0;
  int finishes = 0;
  std::vector<std::uint8_t> result;
  std::vector<std::string> failures;

 private:
  std::uint32_t index_;
  JobSpec spec_;
};

}  // namespace drift::test_support
