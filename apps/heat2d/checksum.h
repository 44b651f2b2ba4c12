// heat2d's result: an exact, tiling-independent checksum of the grid's bits. Each cell adds
// mix64 of (its global index, the bit pattern of its value) with wrapping uint64 arithmetic, so
// partial sums over any partition of the grid add up to the same total, and any change of any
// bit of any cell changes it (with overwhelming probability).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "apps/heat2d/jacobi_kernel.h"

namespace drift::heat2d {

// splitmix64's finalizer: a bijection on uint64 with full avalanche.
std::uint64_t mix64(std::uint64_t x);

// The contribution of the cell at global index row * width + col holding `value`.
std::uint64_t cell_digest(std::uint64_t global_index, double value);

// Sum of cell_digest over `window` of a row-major array (`stride` doubles per row) whose
// element (r, c) is the grid's cell (r + row_offset, c + col_offset); grid width `width`.
std::uint64_t block_checksum(std::span<const double> data, std::size_t stride, const Window& window,
                             std::int64_t row_offset, std::int64_t col_offset, std::uint32_t width);

// 16 lowercase hex digits.
std::string format_checksum(std::uint64_t checksum);

}  // namespace drift::heat2d
