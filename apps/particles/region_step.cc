// One step over a range of cells (region_step.h).
#include "apps/particles/region_step.h"

#include <span>

#include "apps/particles/collisions.h"

namespace drift::particles {

namespace {

// Insertion sort: a cell holds a few dozen particles, in id order already but for the few that
// moved in from the neighbouring cells.
void sort_by_id(std::span<Particle> cell) {
  for (std::size_t i = 1; i < cell.size(); ++i) {
    const Particle p = cell[i];
    std::size_t j = i;
    for (; j > 0 && cell[j - 1].id > p.id; --j) cell[j] = cell[j - 1];
    cell[j] = p;
  }
}

// Counting sort by cell (stable), then each cell by id. Returns the start of every cell of the
// range in the sorted vector, plus the end.
std::vector<std::size_t> sort_by_cell(std::vector<Particle>& particles, const CellRange& range,
                                      std::uint64_t cells) {
  std::vector<std::size_t> start(range.size() + 1, 0);
  for (const Particle& p : particles) ++start[cell_of(p.x, cells) - range.begin + 1];
  for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  std::vector<Particle> sorted(particles.size());
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (const Particle& p : particles) sorted[next[cell_of(p.x, cells) - range.begin]++] = p;
  particles.swap(sorted);
  for (std::size_t c = 0; c + 1 < start.size(); ++c) {
    sort_by_id(std::span(particles).subspan(start[c], start[c + 1] - start[c]));
  }
  return start;
}

}  // namespace

Physics physics_of(const Params& params) {
  return Physics{params.cells, params.seed,
                 Motion{static_cast<double>(params.cells), params.acceleration()}};
}

Leavers advance_region(std::vector<Particle>& particles, const CellRange& range,
                       const Physics& physics, std::uint64_t step) {
  const std::vector<std::size_t> start = sort_by_cell(particles, range, physics.cells);
  std::vector<std::uint32_t> order;
  for (std::size_t c = 0; c + 1 < start.size(); ++c) {
    collide_cell(std::span(particles).subspan(start[c], start[c + 1] - start[c]), physics.seed,
                 step, range.begin + c, order);
  }
  Leavers out;
  std::size_t kept = 0;
  for (Particle& p : particles) {
    move(p, physics.motion);
    const std::uint64_t cell = cell_of(p.x, physics.cells);
    if (cell < range.begin) {
      out.left.push_back(p);
    } else if (cell >= range.end) {
      out.right.push_back(p);
    } else {
      if (&particles[kept] != &p) particles[kept] = p;
      ++kept;
    }
  }
  particles.resize(kept);
  return out;
}

}  // namespace drift::particles
