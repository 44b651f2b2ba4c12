// Which accepted connections a daemon lets start a handshake (docs/architecture.md §4): at most
// `max_pending` not yet authenticated at once, at most `max_pending_per_address` of them from
// one address, and new ones from one address at no more than `per_second` on average (bursts
// of `burst`). Authenticated connections do not count: a busy cluster is never refused by it,
// only a flood of strangers. Pure: time comes in as arguments; the network thread owns it.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>

namespace drift {

class Admission {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  struct Limits {
    std::size_t max_pending = 128;
    std::size_t max_pending_per_address = 16;
    double per_second = 100;
    double burst = 200;
  };

  explicit Admission(Limits limits) : limits_(limits) {}

  // "" when a new connection from `address` may start its handshake (it then counts as pending
  // until authenticated() or closed()); else why not.
  std::string admit(const std::string& address, TimePoint now);
  // Which bound on pending handshakes a new connection from `address` would meet now: none,
  // the address's own, or all addresses' together. The transport then makes room by closing the
  // oldest of those handshakes if it has taken long enough (transport.cc): twenty silent
  // connections must not lock every later client out, and loopback clients share one address.
  // kAddress is said first: a newcomer its own address's bound refuses never makes room among
  // the others'. kRate: not within its address's rate, room or not (nothing is closed for it).
  enum class Full { kNo, kAddress, kAll, kRate };
  Full full(const std::string& address, TimePoint now) const;
  // A pending connection from `address` completed its handshake, or was closed before that.
  void settled(const std::string& address);

  std::size_t pending() const { return pending_; }
  std::size_t addresses_remembered() const { return sources_.size(); }

 private:
  struct Source {
    std::size_t pending = 0;
    double tokens = 0;
    TimePoint refilled{};
  };

  Limits limits_;
  std::size_t pending_ = 0;
  std::map<std::string, Source> sources_;  // addresses seen lately (idle full ones are dropped)
};

}  // namespace drift
