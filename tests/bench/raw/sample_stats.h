// Summaries of repeated measurements: the median (the benchmark's headline figure) and the best.
#pragma once

#include <vector>

namespace drift::bench {

// Median of `samples` (mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> samples);
// Smallest sample; 0 when empty.
double best(const std::vector<double>& samples);

}  // namespace drift::bench
