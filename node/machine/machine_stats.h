// What the machine itself says about its load: the 1-minute load average and available memory
// (Linux /proc), and a short start-up micro-benchmark for a node with no configured capacity.
#pragma once

#include <cstdint>

namespace drift {

double read_load_average();          // 0 if /proc/loadavg is unreadable
std::uint64_t read_available_memory();  // bytes; 0 if /proc/meminfo is unreadable
// Floating-point work units (millions of stencil cells) per CPU second of one core, measured for
// about `millis` ms of wall time (longer under a small CPU quota, until it had some CPU time).
double measure_capacity(int millis = 50);

}  // namespace drift
