#include "node/net/loop_watch.h"

namespace drift {

namespace {

thread_local bool held = false;
thread_local SlowestHold slowest;

}  // namespace

LoopHold::LoopHold(const char* what) : outermost_(!held) {
  if (!outermost_) return;
  held = true;
  began_ = std::chrono::steady_clock::now();
  what_ = what;
}

LoopHold::~LoopHold() {
  if (!outermost_) return;
  held = false;
  const auto took = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - began_);
  if (!slowest.what || took > slowest.took) slowest = SlowestHold{what_, took};
}

SlowestHold take_slowest_hold() {
  SlowestHold out = slowest;
  slowest = SlowestHold{};
  return out;
}

std::string describe(const SlowestHold& hold) {
  if (!hold.what) return "";
  return std::string(hold.what) + " for " + std::to_string(hold.took.count() / 1000) + " ms";
}

}  // namespace drift
