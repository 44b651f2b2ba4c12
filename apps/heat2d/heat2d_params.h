// heat2d's job options: grid size, steps, tasks and spare tasks, read from a JobSpec with defaults
// filled in and every value checked. Errors name the key and the offending value (STYLE.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drift/status.h>
#include <drift/types.h>

namespace drift::heat2d {

inline constexpr std::uint32_t kDefaultWidth = 256;
inline constexpr std::uint32_t kDefaultHeight = 256;
inline constexpr std::uint64_t kDefaultSteps = 100;
inline constexpr std::uint32_t kDefaultTasks = 4;
inline constexpr std::uint32_t kMinSide = 3;  // one interior cell between two boundary cells
inline constexpr std::uint32_t kMaxSide = 65536;

// The grid is width (columns) x height (rows) cells including its fixed outer boundary.
struct Params {
  std::uint32_t width = kDefaultWidth;
  std::uint32_t height = kDefaultHeight;
  std::uint64_t steps = kDefaultSteps;
  std::uint32_t tasks = kDefaultTasks;
  std::uint32_t spare = 0;  // of the tasks, the last `spare` start without a tile (layout.h)

  std::uint32_t tiles() const { return tasks - spare; }  // tiles at the start

  friend bool operator==(const Params&, const Params&) = default;
};

// Reads spec.params["size"] ("WxH"), spec.params["spare"] (decimal, default 0), spec.steps and
// spec.tasks (0 = default) and checks them: sides in [3, 65536], spare < tasks, the tasks less
// the spare ones tile the grid (tiling.h), no unknown params keys.
Result<Params> parse_params(const JobSpec& spec);

// parse_params, then writes the effective values back, so every node sees the same spec.
// Idempotent: validating a filled-in spec again leaves it unchanged.
Status fill_and_validate(JobSpec& spec);

// "WxH" for the spec's params, e.g. "256x256".
std::string format_size(std::uint32_t width, std::uint32_t height);

// One line per option for driftctl's help.
std::vector<std::string> option_help();

}  // namespace drift::heat2d
