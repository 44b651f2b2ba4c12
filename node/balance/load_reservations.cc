// Load reserved here by balancing senders (load_reservations.h).
#include "node/balance/load_reservations.h"

#include <cmath>

namespace drift {

void LoadReservations::reserve(std::uint32_t from, TaskId task, std::uint64_t epoch, double load,
                               Clock::time_point now) {
  expire(now);
  if (!std::isfinite(load) || load <= 0) return;  // a peer's value, unchecked
  auto it = book_.find(task);
  if (it != book_.end() && it->second.epoch >= epoch) return;
  book_[task] = Reservation{from, epoch, load, now};
}

void LoadReservations::release(TaskId task, std::uint64_t epoch) {
  auto it = book_.find(task);
  if (it != book_.end() && it->second.epoch <= epoch) book_.erase(it);
}

void LoadReservations::drop_from(std::uint32_t from) {
  std::erase_if(book_, [from](const auto& entry) { return entry.second.from == from; });
}

void LoadReservations::drop_job(std::uint64_t job) {
  std::erase_if(book_, [job](const auto& entry) { return entry.first.job == job; });
}

double LoadReservations::load(Clock::time_point now) const {
  double sum = 0;
  for (const auto& [task, r] : book_) {
    if (now - r.made < lifetime_) sum += r.load;
  }
  return sum;
}

void LoadReservations::expire(Clock::time_point now) {
  std::erase_if(book_, [&](const auto& entry) { return now - entry.second.made >= lifetime_; });
}

}  // namespace drift
