// Which cells of the box a task owns: task i of T owns the contiguous range
// [i * cells / T, (i + 1) * cells / T), so ranges differ in size by at most one cell and every
// task has at least one cell when T <= cells. Task i's neighbours are i - 1 (left) and i + 1.
#pragma once

#include <cstdint>

namespace drift::particles {

struct CellRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t size() const { return end - begin; }
  bool contains(std::uint64_t cell) const { return cell >= begin && cell < end; }
  friend bool operator==(const CellRange&, const CellRange&) = default;
};

// tasks in [1, cells], index < tasks.
CellRange cell_range(std::uint64_t cells, std::uint32_t tasks, std::uint32_t index);

// The task whose range holds `cell` (the inverse of cell_range).
std::uint32_t owner_of(std::uint64_t cell, std::uint64_t cells, std::uint32_t tasks);

// The cell holding position x of a box of `cells` cells; x in [0, cells] (the right wall itself
// belongs to the last cell). Inline: it runs several times per particle and step.
inline std::uint64_t cell_of(double x, std::uint64_t cells) {
  if (!(x > 0)) return 0;  // NaN too: loaded states are checked separately
  if (x >= static_cast<double>(cells)) return cells - 1;
  return static_cast<std::uint64_t>(x);  // truncation = floor for x > 0
}

}  // namespace drift::particles
