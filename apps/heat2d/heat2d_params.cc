// Parsing and checking heat2d's options (heat2d_params.h).
#include "apps/heat2d/heat2d_params.h"

#include <charconv>
#include <optional>
#include <string_view>

#include "apps/heat2d/tiling.h"

namespace drift::heat2d {
namespace {

constexpr const char* kSizeKey = "size";
constexpr const char* kSpareKey = "spare";

// Strict decimal: digits only, no sign, no spaces, no overflow.
std::optional<std::uint32_t> parse_count(std::string_view s) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return std::nullopt;
  std::uint32_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

Status parse_size(const std::string& text, Params& p) {
  const std::string quoted = std::string(kSizeKey) + " = '" + text + "'";
  const auto x = text.find('x');
  std::optional<std::uint32_t> w, h;
  if (x != std::string::npos) {
    w = parse_count(std::string_view(text).substr(0, x));
    h = parse_count(std::string_view(text).substr(x + 1));
  }
  if (!w || !h) return Status::error(quoted + ": expected WxH, e.g. 512x512");
  if (*w < kMinSide || *h < kMinSide || *w > kMaxSide || *h > kMaxSide) {
    return Status::error(quoted + ": width and height must be between " + std::to_string(kMinSide) +
                         " and " + std::to_string(kMaxSide));
  }
  p.width = *w;
  p.height = *h;
  return Status::ok();
}

// After tasks is known: spare < tasks.
Status parse_spare(const std::string& text, Params& p) {
  const std::string quoted = std::string(kSpareKey) + " = '" + text + "'";
  const std::optional<std::uint32_t> spare = parse_count(text);
  if (!spare) return Status::error(quoted + ": expected a whole number of tasks, e.g. 2");
  if (*spare >= p.tasks) {
    return Status::error(quoted + " must be less than tasks = " + std::to_string(p.tasks));
  }
  p.spare = *spare;
  return Status::ok();
}

Status check_tiles_fit(const Params& p) {
  if (make_tiling(p.width, p.height, p.tiles())) return Status::ok();
  const std::string tasks = "tasks = " + std::to_string(p.tasks) +
                            (p.spare == 0 ? ""
                                          : " less spare = '" + std::to_string(p.spare) + "' (" +
                                                std::to_string(p.tiles()) + " tiles)");
  return Status::error(tasks + " does not fit size = '" + format_size(p.width, p.height) +
                       "': every tile needs at least one interior cell in each direction (" +
                       format_size(p.width - 2, p.height - 2) + " interior cells)");
}

}  // namespace

std::string format_size(std::uint32_t width, std::uint32_t height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

Result<Params> parse_params(const JobSpec& spec) {
  for (const auto& [key, value] : spec.params) {
    if (key != kSizeKey && key != kSpareKey) {
      return Status::error("unknown parameter '" + key + "' = '" + value +
                           "' (heat2d knows: size, spare)");
    }
  }
  Params p;
  if (auto it = spec.params.find(kSizeKey); it != spec.params.end()) {
    if (Status s = parse_size(it->second, p); !s) return s;
  }
  p.steps = spec.steps == 0 ? kDefaultSteps : spec.steps;
  p.tasks = spec.tasks == 0 ? kDefaultTasks : spec.tasks;
  if (auto it = spec.params.find(kSpareKey); it != spec.params.end()) {
    if (Status s = parse_spare(it->second, p); !s) return s;
  }
  if (Status s = check_tiles_fit(p); !s) return s;
  return p;
}

Status fill_and_validate(JobSpec& spec) {
  Result<Params> p = parse_params(spec);
  if (!p) return p.status();
  spec.params[kSizeKey] = format_size(p->width, p->height);
  spec.params[kSpareKey] = std::to_string(p->spare);
  spec.steps = p->steps;
  spec.tasks = p->tasks;
  return Status::ok();
}

std::vector<std::string> option_help() {
  return {
      "--size WxH   grid size in cells, fixed boundary included (default 256x256)",
      "--steps S    Jacobi sweeps (default 100)",
      "--tasks N    tiles, one task each (default 4)",
      "--spare N    of the tasks, N start without a tile and take half of one the balancer splits "
      "(default 0)",
  };
}

}  // namespace drift::heat2d
