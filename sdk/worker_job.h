// What every task of a worker shares: the job it belongs to, as the daemon's WorkerSetup said.
// Immutable once made; a rollback replaces the whole worker, never this.
#pragma once

#include <cstdint>

#include <drift/application.h>
#include <drift/types.h>

namespace drift {

struct WorkerJob {
  std::uint64_t id = 0;
  std::uint32_t root = 0;
  std::uint32_t generation = 0;  // rollbacks so far; stamped on what tasks send
  std::uint32_t node = 0;
  JobSpec spec;
  const Application* app = nullptr;
};

}  // namespace drift
