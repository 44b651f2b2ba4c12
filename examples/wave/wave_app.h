// The wave application as drift sees it (drift/application.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "wave.h"

namespace wave {

class WaveApp final : public drift::Application {
 public:
  std::string name() const override;
  std::vector<std::string> option_help() const override;
  drift::Status validate(drift::JobSpec& spec) const override;
  std::unique_ptr<drift::Task> create_task(const drift::JobSpec& spec,
                                           std::uint32_t index) const override;
  std::vector<drift::ReduceOp> reduction_ops() const override;
  drift::Result<drift::JobOutcome> combine(
      const drift::JobSpec& spec,
      const std::vector<std::vector<std::uint8_t>>& results) const override;
  drift::Result<drift::JobOutcome> run_serial(const drift::JobSpec& spec) const override;

 private:
  static drift::JobOutcome outcome(const std::vector<double>& string);
};

}  // namespace wave
