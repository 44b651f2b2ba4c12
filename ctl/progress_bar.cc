#include "ctl/progress_bar.h"

#include <algorithm>

namespace drift::ctl {

namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

std::string format(const char* spec, double value) {
  char text[64];
  std::snprintf(text, sizeof text, spec, value);
  return text;
}

}  // namespace

std::string render_progress(std::uint64_t step, std::uint64_t steps,
                            const std::vector<double>& values, double elapsed_s, int width) {
  const double fraction = steps == 0 ? 1.0 : std::min(1.0, double(step) / double(steps));
  const int filled = static_cast<int>(fraction * width);
  std::string line = "[" + std::string(filled, '#') + std::string(width - filled, ' ') + "] " +
                     std::to_string(step) + "/" + std::to_string(steps) + " steps ";
  for (double v : values) line += " " + format("%.3g", v);
  return line + "  " + format("%.1f", elapsed_s) + " s";
}

ProgressBar::ProgressBar(std::FILE* out, bool enabled)
    : out_(out), enabled_(enabled), start_(Clock::now()) {}

void ProgressBar::update(std::uint64_t step, std::uint64_t steps,
                         const std::vector<double>& values) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (drawn_ && step < steps && now - last_draw_ < kRedrawInterval) return;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  // "\r" back to the start, "\033[K" erases what a longer previous line left behind.
  std::fprintf(out_, "\r%s\033[K", render_progress(step, steps, values, elapsed).c_str());
  std::fflush(out_);
  drawn_ = true;
  last_draw_ = now;
}

void ProgressBar::finish() {
  if (!enabled_ || !drawn_) return;
  std::fprintf(out_, "\r\033[K");
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace drift::ctl
