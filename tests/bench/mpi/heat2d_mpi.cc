// heat2d as an MPI program, the peer a scientist would otherwise use (tests/bench/mpi_bench.py):
// the same Jacobi sweep, initial condition and checksum as apps/heat2d (their sources are
// compiled in), the grid cut into bands of rows, one per rank; every step a halo exchange with
// the ranks above and below (MPI_Sendrecv) and one reduction of the step's {sum of squared
// change, largest change} that every rank waits for (MPI_Allreduce) — what drift's heat2d does
// per step. Prints one JSON line on rank 0: the seconds of every step and the grid's checksum.
// Usage: mpirun -np P heat2d_mpi WIDTH HEIGHT STEPS
#include <mpi.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "apps/heat2d/checksum.h"
#include "apps/heat2d/initial_condition.h"
#include "apps/heat2d/jacobi_kernel.h"

namespace {

using drift::heat2d::Window;

// {sum, max} of two SweepStats, as one MPI operation (one reduction per step, like drift's).
void combine(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<double*>(in);
  auto* b = static_cast<double*>(inout);
  for (int i = 0; i + 1 < 2 * *len; i += 2) {
    b[i] += a[i];
    b[i + 1] = std::max(b[i + 1], a[i + 1]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc != 4) {
    if (rank == 0) std::fprintf(stderr, "usage: heat2d_mpi WIDTH HEIGHT STEPS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const auto width = static_cast<std::uint32_t>(std::strtoul(argv[1], nullptr, 10));
  const auto height = static_cast<std::uint32_t>(std::strtoul(argv[2], nullptr, 10));
  const std::uint64_t steps = std::strtoull(argv[3], nullptr, 10);
  if (width < 3 || height < 3 || height - 2 < static_cast<std::uint32_t>(ranks)) {
    if (rank == 0) std::fprintf(stderr, "heat2d_mpi: a grid of at least 3 x (ranks + 2) cells\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  // Interior rows [1, height - 1) split as evenly as possible; rank r owns [first, last).
  const std::uint32_t interior = height - 2;
  const std::uint32_t first = 1 + interior * static_cast<std::uint64_t>(rank) / ranks;
  const std::uint32_t last = 1 + interior * static_cast<std::uint64_t>(rank + 1) / ranks;
  const std::uint32_t rows = last - first;
  // Local rows 0 and rows + 1 are the halos (or the fixed boundary rows at the grid's edges).
  std::vector<double> grid(static_cast<std::size_t>(rows + 2) * width);
  for (std::uint32_t r = 0; r < rows + 2; ++r) {
    for (std::uint32_t c = 0; c < width; ++c) {
      grid[static_cast<std::size_t>(r) * width + c] =
          drift::heat2d::initial_value(first - 1 + r, c, width, height);
    }
  }
  std::vector<double> next = grid;
  const Window window{1, rows + 1, 1, width - 1u};
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int down = rank + 1 < ranks ? rank + 1 : MPI_PROC_NULL;
  MPI_Op op;
  MPI_Op_create(&combine, 1, &op);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  std::vector<double> step_s;
  step_s.reserve(steps);
  MPI_Barrier(MPI_COMM_WORLD);
  for (std::uint64_t step = 0; step < steps; ++step) {
    const double began = MPI_Wtime();
    double* g = grid.data();
    MPI_Sendrecv(g + width, static_cast<int>(width), MPI_DOUBLE, up, 0,
                 g + static_cast<std::size_t>(rows + 1) * width, static_cast<int>(width),
                 MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(g + static_cast<std::size_t>(rows) * width, static_cast<int>(width), MPI_DOUBLE,
                 down, 1, g, static_cast<int>(width), MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    const drift::heat2d::SweepStats s = drift::heat2d::jacobi_sweep(grid, next, width, window);
    double mine[2] = {s.sum_sq_change, s.max_abs_change};
    double all[2];
    MPI_Allreduce(mine, all, 1, pair, op, MPI_COMM_WORLD);
    std::swap(grid, next);
    step_s.push_back(MPI_Wtime() - began);
  }
  // The checksum of the cells this rank owns (the boundary rows go with the edge ranks).
  const std::uint32_t top = rank == 0 ? 0 : 1;
  const std::uint32_t bottom = rank + 1 == ranks ? rows + 2 : rows + 1;
  std::uint64_t sum = drift::heat2d::block_checksum(grid, width, Window{top, bottom, 0, width},
                                                    static_cast<std::int64_t>(first) - 1, 0, width);
  std::uint64_t total = 0;
  MPI_Reduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("{\"checksum\": \"%s\", \"step_s\": [", drift::heat2d::format_checksum(total).c_str());
    for (std::size_t i = 0; i < step_s.size(); ++i) std::printf("%s%.9f", i ? ", " : "", step_s[i]);
    std::printf("]}\n");
  }
  MPI_Type_free(&pair);
  MPI_Op_free(&op);
  MPI_Finalize();
  return 0;
}
