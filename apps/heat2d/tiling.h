// How heat2d splits the W x H grid into px x py rectangular tiles, one per task. The interior
// cells are divided as evenly as possible (sizes differ by at most one, the larger ones spread
// out); the fixed boundary rows/columns belong to the tiles at the grid's edges. Pure integer
// arithmetic plus correctly rounded IEEE division, so every node computes the same tiling.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace drift::heat2d {

// A half-open range [begin, end) of rows or columns of the whole grid.
struct Range {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  std::uint32_t size() const { return end - begin; }
  friend bool operator==(const Range&, const Range&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(begin, end);
  }
};

enum Side : std::uint8_t { kNorth = 0, kSouth = 1, kWest = 2, kEast = 3 };
inline constexpr int kSides = 4;
inline constexpr std::uint32_t kNoNeighbour = UINT32_MAX;
Side opposite(Side s);

struct Tiling {
  std::uint32_t px = 1;                 // tiles across (columns of tiles)
  std::uint32_t py = 1;                 // tiles down (rows of tiles)
  std::vector<std::uint32_t> col_cuts;  // px + 1 cuts, 0 .. width
  std::vector<std::uint32_t> row_cuts;  // py + 1 cuts, 0 .. height
};

// Tile `index` is tile (index % px, index / px), row-major; north is towards row 0.
struct Tile {
  Range rows;
  Range cols;
  std::array<std::uint32_t, kSides> neighbour{kNoNeighbour, kNoNeighbour, kNoNeighbour,
                                              kNoNeighbour};
};

// Factors tasks = px * py with every tile at least one interior cell wide and tall, choosing the
// factorization whose tiles are closest to square (ties: more tiles down, so halos along rows
// are contiguous). nullopt when no factorization fits.
std::optional<Tiling> make_tiling(std::uint32_t width, std::uint32_t height, std::uint32_t tasks);

Tile tile_of(const Tiling& tiling, std::uint32_t index);

}  // namespace drift::heat2d
