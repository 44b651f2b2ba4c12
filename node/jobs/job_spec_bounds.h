// How much a job's description may hold (docs/architecture.md §6.1). A job's spec travels to
// every node it runs on, into each of its checkpoints and, by its name, into every `driftctl
// jobs` list: a user who named nine jobs with a MiB each made every list bigger than a frame, and
// nobody's `jobs`, `result`, `cancel` or `attach` worked for the week those jobs were kept. So a
// spec is held to sizes no honest job comes near, both as the client sent it and as its
// application filled in its defaults. Pure.
#pragma once

#include <cstddef>

#include "drift/types.h"
#include "drift/status.h"

namespace drift {

struct JobSpecBounds {
  static constexpr std::size_t kAppBytes = 255;        // a name or an executable's file name
  static constexpr std::size_t kNameBytes = 64;        // runtime["name"], as driftctl's --name
  static constexpr std::size_t kRuntimeEntries = 32;   // drift's own options
  static constexpr std::size_t kKeyBytes = 64;         // any key, runtime or params
  static constexpr std::size_t kRuntimeValueBytes = 1024;
  static constexpr std::size_t kParamEntries = 256;    // the application's options
  static constexpr std::size_t kParamBytes = 64 * 1024;  // their keys and values together
};

// Ok, or the first thing over its bound, named: "the job's name is 1048576 bytes (at most 64)".
Status check_spec_bounds(const JobSpec& spec);

}  // namespace drift
