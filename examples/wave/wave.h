// wave: a 1-D wave equation on a string of `points` points with fixed ends, split into segments,
// one per task. Each step every point moves by the leapfrog rule
//   next[i] = 2 u[i] - prev[i] + c2 (u[i-1] - 2 u[i] + u[i+1])
// so a task needs one value from each neighbour (its halo) per step. Every point is computed by
// the same expression in the same order wherever it lives, so the cluster's result is bit for
// bit the serial reference's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drift/app.h>

namespace wave {

struct Params {
  std::uint64_t points = 20000;
  double c2 = 0.25;  // (c dt / dx)^2, stable below 1

  template <class Archive>
  void serialize(Archive& ar) {
    ar(points, c2);
  }
};

// Reads --points from the spec (and fills in its default); the error names the bad value.
drift::Result<Params> read_params(drift::JobSpec& spec);

// Task `index` of `tasks` owns points [first, last).
std::uint64_t segment_start(const Params& p, std::uint32_t tasks, std::uint32_t index);

// The string at rest with a smooth bump a third of the way along: (1 - d^2)^2 for |d| < 1.
double initial_value(const Params& p, std::uint64_t i);

// One leapfrog step of point i from its neighbours; ends stay fixed.
inline double advance(double left, double u, double right, double prev, double c2) {
  return 2 * u - prev + c2 * (left - 2 * u + right);
}

// FNV-1a over the bit patterns of the values, least significant byte first: the same text on
// every machine.
std::string checksum(const std::vector<double>& values);

}  // namespace wave
