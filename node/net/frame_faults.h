// TESTING ONLY: faults on the node-to-node frames a daemon sends, for the failure-injection
// harness (driftctl fault run; config keys test.*, changed at run time by FrameFaultsRequest).
// Decides per frame whether it is dropped, sent once or sent twice, and how long every frame is
// held. Off (all zero) by default. Pure: a seeded generator, no clock, no I/O.
#pragma once

#include <chrono>
#include <cstdint>
#include <random>
#include <string>

namespace drift {

class FrameFaults {
 public:
  struct Settings {
    double drop = 0;       // fraction of frames not sent, 0..1
    double duplicate = 0;  // fraction of frames sent twice, 0..1
    double delay_ms = 0;   // every frame held this long

    bool any() const { return drop > 0 || duplicate > 0 || delay_ms > 0; }
    // "drop 0.01, duplicate 0, delay 5 ms"
    std::string text() const;
  };

  explicit FrameFaults(std::uint64_t seed) : rng_(seed) {}

  void set(const Settings& s) { settings_ = s; }
  const Settings& settings() const { return settings_; }
  bool active() const { return settings_.any(); }

  // How many times to send the next frame: 0 (dropped), 1 or 2 (duplicated).
  int copies();
  std::chrono::microseconds delay() const;

  std::uint64_t dropped() const { return dropped_; }
  std::uint64_t duplicated() const { return duplicated_; }

 private:
  Settings settings_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
  std::uint64_t dropped_ = 0;
  std::uint64_t duplicated_ = 0;
};

}  // namespace drift
