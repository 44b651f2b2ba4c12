#include "node/membership/phi_accrual_detector.h"

#include <algorithm>
#include <cmath>

namespace drift {

namespace {

double to_ms(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

// log(1 + e^z) without overflow for large z or loss of precision for very negative z.
double softplus(double z) { return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }

}  // namespace

PhiAccrualDetector::PhiAccrualDetector(Params p) : params_(p) {
  params_.window = std::max<std::size_t>(params_.window, 2);
}

void PhiAccrualDetector::heartbeat(TimePoint now) {
  if (!started_) {
    // Akka's bootstrap: two samples around the assumed interval, std dev = interval / 4.
    const double first = to_ms(params_.first_interval);
    add_interval(first - first / 4);
    add_interval(first + first / 4);
    started_ = true;
    last_ = now;
    return;
  }
  if (now < last_) return;
  add_interval(to_ms(now - last_));
  ++learned_;
  last_ = now;
}

void PhiAccrualDetector::alive_at(TimePoint now) {
  if (!started_) return heartbeat(now);
  if (now > last_) last_ = now;
}

void PhiAccrualDetector::add_interval(double ms) {
  intervals_ms_.push_back(ms);
  sum_ += ms;
  sum_sq_ += ms * ms;
  if (intervals_ms_.size() > params_.window) {
    const double old = intervals_ms_.front();
    intervals_ms_.pop_front();
    sum_ -= old;
    sum_sq_ -= old * old;
  }
  // Running sums drift by rounding; rebuild them once per window so a long-lived peer stays exact.
  if (++since_rebuild_ >= params_.window) rebuild_sums();
}

void PhiAccrualDetector::rebuild_sums() {
  sum_ = 0;
  sum_sq_ = 0;
  for (double ms : intervals_ms_) {
    sum_ += ms;
    sum_sq_ += ms * ms;
  }
  since_rebuild_ = 0;
}

double PhiAccrualDetector::mean_ms() const {
  return sum_ / static_cast<double>(intervals_ms_.size());
}

double PhiAccrualDetector::std_dev_ms() const {
  const double mean = mean_ms();
  const double variance = sum_sq_ / static_cast<double>(intervals_ms_.size()) - mean * mean;
  return std::sqrt(std::max(variance, 0.0));
}

double PhiAccrualDetector::phi(TimePoint now) const {
  if (!started_) return 0;
  const double elapsed = std::max(to_ms(now - last_), 0.0);
  const double mean = mean_ms() + to_ms(params_.acceptable_pause);
  const double std_dev = std::max({std_dev_ms(), to_ms(params_.min_std_dev), 1e-3});
  // Logistic approximation of the normal CDF: F(y) ~ 1 / (1 + e^-z), z = y (1.5976 + 0.070566 y^2),
  // so phi = -log10(1 - F) = log10(1 + e^z).
  const double y = (elapsed - mean) / std_dev;
  const double z = y * (1.5976 + 0.070566 * y * y);
  return softplus(z) / std::log(10.0);
}

bool PhiAccrualDetector::suspicious(TimePoint now) const { return phi(now) >= params_.threshold; }

}  // namespace drift
