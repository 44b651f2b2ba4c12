#include "balancer/profitability.h"

#include <algorithm>
#include <cmath>

namespace drift::balance {
namespace {

constexpr double kOrderSlack = 1e-9;  // relative

}  // namespace

bool profitable(const ProfitInputs& in) {
  if (!(in.eff < in.eff_min)) return false;
  const double gain = (in.step_seconds_now - in.step_seconds_after) * in.remaining_steps;
  return gain > in.migration_seconds;  // NaN (e.g. 0 * inf) compares false
}

bool keeps_order(const NodeLoad& sender, const NodeLoad& receiver, double amount) {
  if (!(amount >= 0) || !std::isfinite(amount) || amount > sender.load) return false;
  const double ur = utilization(receiver.load + amount, receiver.capacity);
  if (std::isinf(ur)) return false;
  if (!(sender.capacity > 0)) return true;  // leaving the pool: may give any part
  const double us = utilization(sender.load - amount, sender.capacity);
  return ur <= us + kOrderSlack * std::max(std::abs(us), std::abs(ur));
}

bool lowers_peak(const NodeLoad& sender, const NodeLoad& receiver, double amount) {
  if (!(amount > 0) || !std::isfinite(amount) || amount > sender.load * (1 + kOrderSlack)) return false;
  const double ur = utilization(receiving(receiver, sender, amount));
  if (std::isinf(ur)) return false;
  if (!(sender.capacity > 0)) return true;  // leaving the pool: may give any part
  const double us = utilization(sender);
  return ur < us * (1 - kOrderSlack);
}

}  // namespace drift::balance
