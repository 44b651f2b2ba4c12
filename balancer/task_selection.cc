#include "balancer/task_selection.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace drift::balance {
namespace {

constexpr std::size_t kMaxBuckets = std::size_t{1} << 20;  // bounds the DP table's memory
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kSumRounding = 1e-12;  // relative: 1.1 + 0.35 + 0.25 > 1.7 in doubles

struct Item {
  std::size_t index = 0;
  std::size_t key = 0;  // load in buckets
  double load = 0;
  double extra = 0;  // locality bonus - state cost, load units
};

bool whole(double x) { return x == std::floor(x) && x < 9.0e15; }

// Best selection found for each bucket sum: the one with the highest Σ (load + extra).
struct Table {
  std::vector<double> value, load, extra;
  std::vector<std::vector<bool>> taken;  // taken[item][bucket]: the item is in that bucket's best
};

Table knapsack(const std::vector<Item>& items, std::size_t buckets) {
  Table t;
  t.value.assign(buckets + 1, -kInf);
  t.load.assign(buckets + 1, 0.0);
  t.extra.assign(buckets + 1, 0.0);
  t.value[0] = 0;
  t.taken.assign(items.size(), std::vector<bool>(buckets + 1, false));
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    for (std::size_t b = buckets + 1; b-- > it.key;) {  // descending: each item at most once
      const std::size_t from = b - it.key;
      if (t.value[from] == -kInf) continue;
      const double candidate = t.value[from] + it.load + it.extra;
      if (!(candidate > t.value[b])) continue;
      t.value[b] = candidate;
      t.load[b] = t.load[from] + it.load;
      t.extra[b] = t.extra[from] + it.extra;
      t.taken[i][b] = true;
    }
  }
  return t;
}

}  // namespace

std::vector<std::size_t> select_tasks(const std::vector<Candidate>& candidates, double target,
                                      const SelectionParams& params) {
  if (!(target > 0) || !std::isfinite(target)) return {};
  const double bound = target * (1 + (params.tolerance > 0 ? params.tolerance : 0.0));
  const std::size_t max_buckets = std::clamp<std::size_t>(params.max_buckets, 1, kMaxBuckets);

  std::vector<Item> items;
  bool all_whole = true;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    if (!(c.load >= 0) || c.load > bound) continue;  // also drops NaN
    const double extra = params.locality_weight * c.locality -
                         params.bytes_weight * static_cast<double>(c.state_bytes);
    items.push_back({i, 0, c.load, std::isfinite(extra) ? extra : -kInf});
    all_whole = all_whole && whole(c.load);
  }
  std::erase_if(items, [](const Item& it) { return it.extra == -kInf; });
  if (items.empty()) return {};

  const bool exact = all_whole && std::floor(bound) <= static_cast<double>(max_buckets);
  const std::size_t buckets = exact ? static_cast<std::size_t>(std::floor(bound)) : max_buckets;
  const double step = exact ? 1.0 : bound / static_cast<double>(buckets);
  for (Item& it : items) {
    it.key = std::min(static_cast<std::size_t>(std::llround(it.load / step)), buckets);
  }

  const Table t = knapsack(items, buckets);
  std::size_t best = 0;
  double best_score = -kInf;
  for (std::size_t b = 0; b <= buckets; ++b) {
    if (t.value[b] == -kInf || t.load[b] > bound * (1 + kSumRounding)) continue;
    const double score = t.extra[b] - std::abs(t.load[b] - target);
    if (score > best_score) {
      best_score = score;
      best = b;
    }
  }

  std::vector<std::size_t> chosen;
  for (std::size_t i = items.size(); i-- > 0;) {
    if (!t.taken[i][best]) continue;
    chosen.push_back(items[i].index);
    best -= items[i].key;
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace drift::balance
