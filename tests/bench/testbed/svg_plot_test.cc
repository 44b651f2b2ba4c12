// svg_plot: the chart is well-formed SVG with one path per series and escaped text.
#include "tests/bench/testbed/svg_plot.h"

#include <gtest/gtest.h>

namespace drift::bench {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SvgPlotTest, OnePathPerSeriesAndALegendEntry) {
  Plot p{"steps <a & b>", "step", "s", false,
         {{"one", {{1, 2}, {2, 3}}, false}, {"two", {{1, 1}, {2, 0.5}}, true}}};
  const std::string svg = render_svg(p);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "<path "), 2u);
  EXPECT_EQ(count(svg, "stroke-dasharray"), 2u);  // the dashed series and its legend line
  EXPECT_NE(svg.find("steps &lt;a &amp; b&gt;"), std::string::npos);
}

TEST(SvgPlotTest, LogAxisSkipsNonPositiveValuesAndEmptyPlotsRender) {
  Plot p{"log", "x", "y", true, {{"s", {{1, 0}, {2, 10}, {3, 100}}, false}}};
  const std::string svg = render_svg(p);
  EXPECT_EQ(count(svg, "<path "), 1u);
  EXPECT_NE(svg.find(">100<"), std::string::npos);
  EXPECT_NE(render_svg(Plot{}).find("</svg>"), std::string::npos);
  // A log plot whose series have no points (rows that did not run) renders empty axes.
  EXPECT_NE(render_svg(Plot{"log", "x", "y", true, {{"s", {}, false}}}).find("</svg>"),
            std::string::npos);
}

}  // namespace
}  // namespace drift::bench
