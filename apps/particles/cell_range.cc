// Splitting the box between tasks (cell_range.h).
#include "apps/particles/cell_range.h"

namespace drift::particles {

CellRange cell_range(std::uint64_t cells, std::uint32_t tasks, std::uint32_t index) {
  return CellRange{index * cells / tasks, (index + 1ull) * cells / tasks};
}

// begin(i) = floor(i * cells / tasks) <= cell  <=>  i * cells < (cell + 1) * tasks.
std::uint32_t owner_of(std::uint64_t cell, std::uint64_t cells, std::uint32_t tasks) {
  return static_cast<std::uint32_t>(((cell + 1) * tasks - 1) / cells);
}

}  // namespace drift::particles
