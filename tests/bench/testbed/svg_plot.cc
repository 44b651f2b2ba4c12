// SVG line charts (svg_plot.h).
#include "tests/bench/testbed/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace drift::bench {

namespace {

constexpr double kWidth = 860, kHeight = 420;
constexpr double kLeft = 70, kRight = 270, kTop = 40, kBottom = 50;
const char* const kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string tick_label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Round tick values covering [lo, hi]: 1, 2 or 5 times a power of ten apart.
std::vector<double> linear_ticks(double lo, double hi) {
  const double span = hi - lo;
  if (!(span > 0)) return {lo};
  const double raw = span / 5;
  const double power = std::pow(10, std::floor(std::log10(raw)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * power) {
      step = m * power;
      break;
    }
  }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push_back(t);
  return ticks;
}

}  // namespace

std::string render_svg(const Plot& plot) {
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo;
  double y_lo = x_lo, y_hi = -x_lo;
  for (const auto& s : plot.series) {
    for (auto [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y) || (plot.log_y && y <= 0)) continue;
      x_lo = std::min(x_lo, x);
      x_hi = std::max(x_hi, x);
      y_lo = std::min(y_lo, y);
      y_hi = std::max(y_hi, y);
    }
  }
  if (!std::isfinite(x_lo)) {  // nothing to draw: empty axes (a log axis needs y > 0)
    x_lo = 0, x_hi = 1;
    y_lo = plot.log_y ? 1 : 0, y_hi = plot.log_y ? 10 : 1;
  }
  if (x_hi <= x_lo) x_hi = x_lo + 1;
  if (!plot.log_y) y_lo = std::min(0.0, y_lo);
  if (y_hi <= y_lo) y_hi = y_lo + 1;
  std::vector<double> y_ticks;
  if (plot.log_y) {
    y_lo = std::pow(10, std::floor(std::log10(y_lo)));
    y_hi = std::pow(10, std::ceil(std::log10(y_hi)));
    for (double t = y_lo; t <= y_hi * 1.0001; t *= 10) y_ticks.push_back(t);
  } else {
    y_ticks = linear_ticks(y_lo, y_hi);
    y_hi = std::max(y_hi, y_ticks.back());
  }
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double x) { return kLeft + (x - x_lo) / (x_hi - x_lo) * plot_w; };
  auto py = [&](double y) {
    const double f = plot.log_y ? (std::log10(y) - std::log10(y_lo)) / (std::log10(y_hi) - std::log10(y_lo))
                                : (y - y_lo) / (y_hi - y_lo);
    return kTop + (1 - f) * plot_h;
  };
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) +
                    "\" height=\"" + num(kHeight) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + num(kWidth / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" +
         escape(plot.title) + "</text>\n";
  for (double t : y_ticks) {
    svg += "<line x1=\"" + num(kLeft) + "\" x2=\"" + num(kLeft + plot_w) + "\" y1=\"" + num(py(t)) +
           "\" y2=\"" + num(py(t)) + "\" stroke=\"#ddd\"/>\n";
    svg += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(py(t) + 4) + "\" text-anchor=\"end\">" +
           tick_label(t) + "</text>\n";
  }
  for (double t : linear_ticks(x_lo, x_hi)) {
    svg += "<line x1=\"" + num(px(t)) + "\" x2=\"" + num(px(t)) + "\" y1=\"" + num(kTop + plot_h) +
           "\" y2=\"" + num(kTop + plot_h + 5) + "\" stroke=\"black\"/>\n";
    svg += "<text x=\"" + num(px(t)) + "\" y=\"" + num(kTop + plot_h + 18) +
           "\" text-anchor=\"middle\">" + tick_label(t) + "</text>\n";
  }
  svg += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(plot_w) +
         "\" height=\"" + num(plot_h) + "\" fill=\"none\" stroke=\"black\"/>\n";
  svg += "<text x=\"" + num(kLeft + plot_w / 2) + "\" y=\"" + num(kHeight - 10) +
         "\" text-anchor=\"middle\">" + escape(plot.x_label) + "</text>\n";
  svg += "<text transform=\"translate(16," + num(kTop + plot_h / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + escape(plot.y_label) + "</text>\n";
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const auto& s = plot.series[i];
    const char* colour = kColours[i % (sizeof kColours / sizeof *kColours)];
    std::string path;
    for (auto [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y) || (plot.log_y && y <= 0)) continue;
      path += (path.empty() ? "M" : " L") + num(px(x)) + "," + num(py(std::max(y, y_lo)));
    }
    if (!path.empty()) {
      svg += "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"1.6\"" +
             (s.dashed ? " stroke-dasharray=\"5,4\"" : "") + "/>\n";
    }
    const double ly = kTop + 14 + 16 * static_cast<double>(i);
    svg += "<line x1=\"" + num(kWidth - kRight + 12) + "\" x2=\"" + num(kWidth - kRight + 32) +
           "\" y1=\"" + num(ly - 4) + "\" y2=\"" + num(ly - 4) + "\" stroke=\"" + colour +
           "\" stroke-width=\"2\"" + (s.dashed ? " stroke-dasharray=\"5,4\"" : "") + "/>\n";
    svg += "<text x=\"" + num(kWidth - kRight + 38) + "\" y=\"" + num(ly) + "\">" + escape(s.name) +
           "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace drift::bench
