// What the [balance] keys of driftd's configuration say (docs/architecture.md §8): which transfer algorithm
// runs, how capacity is estimated and how often it is sensed. Plain values; config.cc validates.
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

#include "balancer/strategy.h"

namespace drift {

// The transfer algorithm (balancer/strategy.h); its names are the config values.
using BalanceStrategy = balance::Strategy;
// static: configured or benchmarked once; dynamic: measured while tasks run (seed 000).
enum class CapacityMode : std::uint8_t { kStatic, kDynamic };
// once: the advertised capacity is frozen after the first measured step (seed 002); every:
// it follows every measurement and every change of external load.
enum class Sensing : std::uint8_t { kEvery, kOnce };

struct BalanceSettings {
  BalanceStrategy strategy = BalanceStrategy::kDiffusion;
  CapacityMode capacity = CapacityMode::kDynamic;
  Sensing sensing = Sensing::kEvery;
  std::chrono::milliseconds period{1000};  // one balancing round per period
  double eff_min = 0.9;                    // balance when U_avg / U_max falls below this
  double hysteresis = 0.05;                // once settled, a node sends below eff_min - this
  double capacity_ewma = 0.5;              // weight of the newest capacity sample, (0, 1]
  double locality_weight = 0.1;            // preference for tasks whose partners live at the dest
  std::uint32_t max_moves = 64;            // tasks one node sends per round
  bool step_floor = true;  // measure and advertise the CPU a step costs beyond computing (§8.1)
};

constexpr std::string_view to_string(CapacityMode m) {
  return m == CapacityMode::kStatic ? "static" : "dynamic";
}

constexpr std::string_view to_string(Sensing s) { return s == Sensing::kOnce ? "once" : "every"; }

}  // namespace drift
