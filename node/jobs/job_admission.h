// Whether a job's memory fits on the nodes that may take it now (docs/architecture.md §6.7):
// the estimate of one task times the tasks against the free memory the available nodes last
// reported, and one task against the largest of them. Pure; the queue (job_queue.cc) asks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace drift {

struct MemoryNeed {
  std::uint32_t tasks = 0;
  std::uint64_t per_task = 0;  // bytes; 0: not stated, always fits
  std::string source;          // whose estimate: "heat2d's estimate", "--memory"
};

// Empty if the job fits; else why it waits, with the figures ("its 8 tasks need 24576 MiB
// (3072 MiB each, --memory); the 2 available node(s) have 20480 MiB free"). A node whose free
// memory is not known yet (0) is not held against the job.
std::string memory_shortfall(const MemoryNeed& need, const std::vector<std::uint64_t>& free_memory);

}  // namespace drift
