// heat2d's initial state and fixed (Dirichlet) boundary, as a closed-form function of the cell
// position, so the serial reference and every task build exactly the same starting grid:
//   top edge 100; bottom edge a ramp 0 -> 50 from left to right; left edge a ramp 100 -> 0 from
//   top to bottom; right edge 0; interior 0 except a hot square (80) around (H/3, 2W/3).
// Outer boundary cells never change during the run.
#pragma once

#include <cstdint>

namespace drift::heat2d {

bool is_boundary(std::uint32_t row, std::uint32_t col, std::uint32_t width, std::uint32_t height);

double initial_value(std::uint32_t row, std::uint32_t col, std::uint32_t width,
                     std::uint32_t height);

}  // namespace drift::heat2d
