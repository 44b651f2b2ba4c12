#include "node/machine/emulation.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace drift {

namespace {

constexpr const char* kForm = "expected start_s:ramp_s:level, e.g. 30:10:2";

Result<double> parse_field(const char* name, std::string_view text) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  const std::string quoted = std::string(name) + " '" + std::string(text) + "'";
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v)) {
    return Status::error(quoted + " is not a number; " + kForm);
  }
  if (v < 0) return Status::error(quoted + " must be >= 0");
  return v;
}

// Where the segment that runs from `from` towards r.level is at `t_s` (>= r.start_s).
double along(const LoadRamp& r, double from, double t_s) {
  if (r.ramp_s <= 0 || t_s >= r.start_s + r.ramp_s) return r.level;
  return from + (r.level - from) * (t_s - r.start_s) / r.ramp_s;
}

}  // namespace

Result<LoadRamp> parse_load_ramp(std::string_view text) {
  std::vector<std::string_view> fields;
  for (std::size_t begin = 0;;) {
    const std::size_t colon = text.find(':', begin);
    fields.push_back(text.substr(begin, colon - begin));
    if (colon == std::string_view::npos) break;
    begin = colon + 1;
  }
  if (fields.size() != 3) {
    return Status::error("has " + std::to_string(fields.size()) + " field" +
                         (fields.size() == 1 ? "" : "s") + "; " + kForm);
  }
  auto start = parse_field("start_s", fields[0]);
  if (!start) return start.status();
  auto ramp = parse_field("ramp_s", fields[1]);
  if (!ramp) return ramp.status();
  auto level = parse_field("level", fields[2]);
  if (!level) return level.status();
  return LoadRamp{*start, *ramp, *level};
}

Emulator::Emulator(EmulationSettings settings, Clock::time_point start)
    : settings_(std::move(settings)), schedule_(settings_.load), start_(start) {
  std::stable_sort(schedule_.begin(), schedule_.end(),
                   [](const LoadRamp& a, const LoadRamp& b) { return a.start_s < b.start_s; });
}

double Emulator::seconds_since_start(Clock::time_point t) const {
  return std::chrono::duration<double>(t - start_).count();
}

double Emulator::external_load(double t_s) const {
  LoadRamp current;  // before any ramp: level 0
  double from = 0;
  for (const LoadRamp& r : schedule_) {
    if (r.start_s > t_s) break;
    from = along(current, from, r.start_s);
    current = r;
  }
  return along(current, from, t_s);
}

double Emulator::rate(double t_s) const {
  return settings_.unit_rate * settings_.speed / (1 + external_load(t_s));
}

double Emulator::stretch(double work_units, double real_s, double t_s) const {
  if (!enabled() || work_units <= 0) return real_s;
  return std::max(real_s, work_units / rate(t_s));
}

}  // namespace drift
