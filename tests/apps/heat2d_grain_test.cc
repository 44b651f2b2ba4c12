// heat2d's key property under changes of its decomposition: whatever tiles split and merge, at
// whichever steps, in any delivery order and with tasks migrating between any two handlers, the
// job's checksum equals the serial reference's bit for bit; changes that cannot apply are ignored
// by every task alike; cells bigger than one message travel in pieces.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "tests/support/app_registry.h"
#include "apps/heat2d/heat2d_app.h"
#include "apps/heat2d/heat2d_params.h"
#include "apps/heat2d/layout.h"
#include "apps/heat2d/piece_message.h"
#include "tests/support/inprocess_runner.h"

namespace drift::heat2d {
namespace {

using test_support::GrainPlanner;
using test_support::InProcessOptions;
using test_support::InProcessStats;
using test_support::run_in_process;
using test_support::scripted_changes;
using Script = std::map<std::uint64_t, std::vector<GrainChange>>;

const Application& app() { return *builtin_apps().find("heat2d"); }

JobSpec spec(const char* size, std::uint32_t tasks, std::uint32_t spare, std::uint64_t steps) {
  return JobSpec{"heat2d", tasks, steps, {{"size", size}, {"spare", std::to_string(spare)}}, {}};
}

GrainChange split(std::uint32_t t, std::uint32_t d) { return {GrainKind::kSplit, t, d}; }
GrainChange merge(std::uint32_t t, std::uint32_t p) { return {GrainKind::kMerge, t, p}; }

// How many of the script's changes apply, replayed on the job's initial layout.
std::uint64_t applicable(const JobSpec& s, const Script& script) {
  Layout layout = initial_layout(*parse_params(s));
  std::uint64_t n = 0;
  for (const auto& [step, changes] : script) n += layout.apply(changes).size();
  return n;
}

// Runs `s` under `planner` with a few seeds (migrating or not) and checks the serial result.
void expect_serial_result(const JobSpec& s, const GrainPlanner& planner,
                          InProcessStats* last = nullptr, double migrate = 0.15) {
  auto serial = app().run_serial(s);
  ASSERT_TRUE(serial) << serial.error();
  std::uint64_t migrations = 0;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    InProcessStats stats;
    InProcessOptions options{.seed = seed * 7907 + s.tasks,
                             .migrate_probability = seed == 1 ? 0.0 : migrate};
    options.planner = planner;
    auto out = run_in_process(app(), s, options, &stats);
    ASSERT_TRUE(out) << out.error() << " (seed " << seed << ")";
    EXPECT_EQ(out->checksum, serial->checksum) << "seed " << seed;
    EXPECT_EQ(out->details.at("max_change"), serial->details.at("max_change"));
    EXPECT_EQ(stats.reductions, s.steps);
    EXPECT_LE(stats.max_payload[kPieceTag], kMaxPieceBytes);
    migrations += stats.migrations;
    if (last) *last = stats;
  }
  if (migrate > 0) {
    EXPECT_GT(migrations, 0u);
  }
}

// The pieces sent equal the applicable changes when each tile part fits one piece.
void expect_script(const JobSpec& s, const Script& script, std::uint64_t applied) {
  ASSERT_EQ(applicable(s, script), applied);
  InProcessStats stats;
  expect_serial_result(s, scripted_changes(script), &stats);
  EXPECT_EQ(stats.messages_by_tag[kPieceTag], applied);
}

TEST(Heat2dGrain, AFewSplitsIncludingAtTheFirstAndLastStep) {
  const JobSpec s = spec("64x48", 8, 4, 12);
  expect_script(s, {{0, {split(0, 4), split(1, 5)}}, {5, {split(2, 6)}}, {11, {split(4, 7)}}}, 4);
}

TEST(Heat2dGrain, SplitThenMergeBack) {
  const JobSpec s = spec("40x30", 4, 2, 16);  // tiles 0 | 1 side by side; 2, 3 spare
  expect_script(s,
                {{1, {split(0, 2)}},
                 {3, {merge(0, 2)}},
                 {5, {split(1, 3), split(0, 2)}},
                 {8, {merge(2, 0)}},  // 2 takes 0's half back: 0 is now the spare one
                 {10, {split(2, 0), merge(1, 3)}},
                 {12, {merge(0, 2)}},
                 {13, {merge(1, 0)}}},  // all one tile
                9);
}

TEST(Heat2dGrain, InvalidChangesAreIgnoredByEveryTask) {
  const JobSpec s = spec("30x22", 6, 2, 10);  // tiles 0 1 / 2 3, each 11 x 15; 4, 5 spare
  expect_script(s,
                {{1, {split(0, 1)}},                            // partner not spare
                 {2, {split(4, 5), merge(0, 3)}},               // spare splits nothing; diagonal
                 {3, {merge(2, 4), split(1, 6)}},               // partner spare; out of range
                 {4, {merge(9, 1), split(2, 2)}},               // out of range; one task twice
                 {5, {split(0, 4), split(0, 5), merge(1, 4)}},  // 0 and 4 already named
                 {6, {merge(1, 0)}},               // 0 kept its west half: not adjacent
                 {7, {merge(0, 4), merge(0, 4)}},  // only the first
                 {8, {merge(0, 2)}}},
                3);
}

// Splits the largest splittable tiles into spare tasks, up to `per_step` a step, until
// `until_step`; then merges pairs back with merge_partner(), each task at most once a step.
GrainPlanner split_down_then_merge(std::uint64_t until_step, std::size_t per_step) {
  return [=](std::uint64_t step, const std::vector<const Task*>& tasks) {
    std::vector<GrainChange> changes;
    std::vector<bool> named(tasks.size(), false);
    const auto name = [&](std::uint32_t t, std::uint32_t p) {
      named[t] = named[p] = true;
      return GrainChange{step < until_step ? GrainKind::kSplit : GrainKind::kMerge, t, p};
    };
    for (std::size_t k = 0; k < per_step; ++k) {
      std::optional<std::uint32_t> t, p;
      for (std::uint32_t i = 0; i < tasks.size(); ++i) {
        if (named[i]) continue;
        if (step < until_step) {
          if (tasks[i]->can_split() && (!t || tasks[i]->load() > tasks[*t]->load())) t = i;
          if (tasks[i]->load() == 0 && !p) p = i;
        } else if (const auto partner = tasks[i]->merge_partner(); partner && !named[*partner]) {
          t = i;
          p = partner;
          break;
        }
      }
      if (!t || !p) break;
      changes.push_back(name(*t, *p));
    }
    return changes;
  };
}

TEST(Heat2dGrain, ChainsOfSplitsDownToSmallTilesAndMergesBack) {
  InProcessStats stats;
  expect_serial_result(spec("26x22", 48, 46, 40), split_down_then_merge(24, 3), &stats);
  EXPECT_GE(stats.messages_by_tag[kPieceTag], 46u + 20u);
  expect_serial_result(spec("5x40", 20, 19, 20), split_down_then_merge(12, 2));  // 1-row tiles
}

// Random changes every step from what the tasks report: merges with a partner, splits into a
// spare task, and junk (random kind and indices, one past the last included).
GrainPlanner random_changes(std::uint64_t seed) {
  auto rng = std::make_shared<std::mt19937_64>(seed);
  return [rng](std::uint64_t, const std::vector<const Task*>& tasks) {
    const auto n = static_cast<std::uint32_t>(tasks.size());
    const auto pick = [&](std::uint32_t bound) {
      return static_cast<std::uint32_t>((*rng)() % bound);
    };
    // From a random start, the first task that `fits`; else any index.
    const auto find = [&](const auto& fits) {
      const std::uint32_t start = pick(n);
      for (std::uint32_t k = 0; k < n; ++k) {
        if (fits(*tasks[(start + k) % n])) return (start + k) % n;
      }
      return pick(n + 1);
    };
    std::vector<GrainChange> changes;
    for (std::uint32_t k = pick(4); k > 0; --k) {
      switch (pick(4)) {
        case 0: {
          const std::uint32_t t = find([](const Task& x) { return x.merge_partner().has_value(); });
          const auto p = t < n ? tasks[t]->merge_partner() : std::nullopt;
          changes.push_back({GrainKind::kMerge, t, p.value_or(t)});
          break;
        }
        case 1:
        case 2:
          changes.push_back({GrainKind::kSplit, find([](const Task& x) { return x.can_split(); }),
                             find([](const Task& x) { return x.load() == 0; })});
          break;
        default:
          changes.push_back(
              {pick(2) ? GrainKind::kSplit : GrainKind::kMerge, pick(n + 1), pick(n + 1)});
      }
    }
    return changes;
  };
}

TEST(Heat2dGrain, RandomChangesEveryStep) {
  for (std::uint64_t seed : {5u, 6u, 7u}) {
    InProcessStats stats;
    expect_serial_result(spec("31x23", 12, 6, 40), random_changes(seed), &stats);
    EXPECT_GT(stats.messages_by_tag[kPieceTag], 15u);  // many apply
  }
}

TEST(Heat2dGrain, WideTilesTravelInSeveralPieces) {
  // Tiles 0 | 1, each 130 rows x 2048 columns; 0 splits its columns: 1024 x 130 cells go to 2.
  const JobSpec s = spec("4096x130", 3, 1, 5);
  InProcessStats stats;
  expect_serial_result(s, scripted_changes({{1, {split(0, 2)}}, {3, {merge(0, 2)}}}), &stats, 0.05);
  EXPECT_EQ(stats.messages_by_tag[kPieceTag], 4u);  // 133120 cells = 2 pieces, each way
  EXPECT_GT(stats.max_payload[kPieceTag], kMaxPieceBytes / 2);
}

TEST(Heat2dGrain, SpareTasksWithoutChanges) {
  for (const auto& [size, tasks, spare] :
       {std::tuple{"40x40", 7u, 3u}, std::tuple{"31x17", 5u, 4u}, std::tuple{"13x53", 10u, 4u}}) {
    const JobSpec s = spec(size, tasks, spare, 9);
    InProcessStats stats;
    expect_serial_result(s, scripted_changes({}), &stats);
    EXPECT_EQ(stats.messages_by_tag[kPieceTag], 0u);
    // The runtime's in-process runner (no regrain) gets the same result.
    auto serial = app().run_serial(s);
    auto runner = test_support::run_in_process(app(), s, {.seed = 3, .migrate_probability = 0.1});
    ASSERT_TRUE(serial && runner) << (runner ? serial.error() : runner.error());
    EXPECT_EQ(runner->checksum, serial->checksum);
  }
}

}  // namespace
}  // namespace drift::heat2d
