// Message counts between tasks for the balancer's locality term (partner_book.h).
#include "node/balance/partner_book.h"

namespace drift {

void PartnerBook::forget_job(std::uint64_t job) {
  std::erase_if(book_, [job](const auto& entry) { return entry.first.job == job; });
}

void PartnerBook::age(double floor) {
  for (auto it = book_.begin(); it != book_.end();) {
    auto& partners = it->second;
    for (auto p = partners.begin(); p != partners.end();) {
      p->second /= 2;
      p = p->second < floor ? partners.erase(p) : std::next(p);
    }
    it = partners.empty() ? book_.erase(it) : std::next(it);
  }
}

const std::map<TaskId, double>& PartnerBook::partners(TaskId task) const {
  static const std::map<TaskId, double> none;
  auto it = book_.find(task);
  return it == book_.end() ? none : it->second;
}

}  // namespace drift
