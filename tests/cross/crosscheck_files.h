// The cross-architecture check's exchange folder: one build writes every sample message's frame
// (tests/protocol/sample_messages.h) and every sample task state (sample_task_states.h) into DIR,
// another build — of another architecture — reads them back and checks them against its own
// samples. Layout: DIR/written-by (the writer's build), DIR/frames/NAME.frame,
// DIR/states/NAME.state.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <drift/status.h>

namespace drift::cross {

// "big-endian 64-bit": what matters about this build for the wire format.
std::string this_build();

Status write_samples(const std::filesystem::path& dir);

struct CheckReport {
  std::string written_by;
  int frames_ok = 0;
  int states_ok = 0;
  std::vector<std::string> failures;  // "frames/heartbeat.frame: decodes to another message"
};

// Every sample this build knows must be in DIR and check out; an I/O error is a failure too.
CheckReport check_samples(const std::filesystem::path& dir);

}  // namespace drift::cross
