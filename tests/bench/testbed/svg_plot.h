// A small line chart as SVG text, for the benchmark's pictures: named series of (x, y) points,
// axes with a few round ticks, a legend; optional logarithmic y axis. No dependencies.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace drift::bench {

struct PlotSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;
  bool dashed = false;
};

struct Plot {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_y = false;
  std::vector<PlotSeries> series;
};

std::string render_svg(const Plot& plot);

}  // namespace drift::bench
