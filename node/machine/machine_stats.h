// What the machine itself says about its load: the 1-minute load average and available memory
// (Linux /proc), and a short start-up micro-benchmark for a node with no configured capacity.
#pragma once

#include <cstdint>

namespace drift {

double read_load_average();          // 0 if /proc/loadavg is unreadable
std::uint64_t read_available_memory();  // bytes; 0 if /proc/meminfo is unreadable
// Floating-point work units per second on one core, measured for about `millis` ms.
double measure_capacity(int millis = 50);

}  // namespace drift
