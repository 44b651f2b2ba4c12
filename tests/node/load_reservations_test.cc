// load_reservations: load reserved at decision time, ended by the offer, the sender or time.
#include "node/balance/load_reservations.h"

#include <gtest/gtest.h>

#include <cmath>

namespace drift {
namespace {

TEST(LoadReservationsTest, CountsUntilTheOfferArrives) {
  LoadReservations book(std::chrono::seconds(30));
  const LoadReservations::Clock::time_point t0{};
  book.reserve(1, {7, 0}, 1, 12.5, t0);
  book.reserve(1, {7, 1}, 3, 10, t0);
  book.reserve(4, {7, 2}, 1, 2, t0);
  EXPECT_DOUBLE_EQ(book.load(t0 + std::chrono::seconds(5)), 24.5);
  book.release({7, 0}, 1);  // offered: the offer counts from now on
  EXPECT_DOUBLE_EQ(book.load(t0 + std::chrono::seconds(5)), 12);
  book.release({7, 1}, 2);  // an older move's end does not end this one
  EXPECT_DOUBLE_EQ(book.load(t0 + std::chrono::seconds(5)), 12);
  book.release({7, 9}, 1);  // nothing reserved: nothing happens
  EXPECT_EQ(book.size(), 2u);
}

TEST(LoadReservationsTest, ALostReservationExpires) {
  LoadReservations book(std::chrono::seconds(30));
  const LoadReservations::Clock::time_point t0{};
  book.reserve(1, {7, 0}, 1, 12.5, t0);
  book.reserve(1, {7, 1}, 1, 3, t0 + std::chrono::seconds(20));
  EXPECT_DOUBLE_EQ(book.load(t0 + std::chrono::seconds(29)), 15.5);
  EXPECT_DOUBLE_EQ(book.load(t0 + std::chrono::seconds(30)), 3);
  book.reserve(2, {8, 0}, 1, 1, t0 + std::chrono::seconds(31));  // forgets the expired one
  EXPECT_EQ(book.size(), 2u);
  EXPECT_DOUBLE_EQ(book.load(t0 + std::chrono::seconds(50)), 1);
}

TEST(LoadReservationsTest, NewerMoveReplacesOlderAndBadValuesAreIgnored) {
  LoadReservations book(std::chrono::seconds(30));
  const LoadReservations::Clock::time_point t0{};
  book.reserve(1, {7, 0}, 2, 5, t0);
  book.reserve(1, {7, 0}, 1, 50, t0);  // older move: ignored
  book.reserve(3, {7, 0}, 3, 6, t0);   // the task moved on and comes back from node 3
  EXPECT_DOUBLE_EQ(book.load(t0), 6);
  book.reserve(1, {7, 1}, 1, -1, t0);
  book.reserve(1, {7, 2}, 1, std::nan(""), t0);
  EXPECT_EQ(book.size(), 1u);
}

TEST(LoadReservationsTest, DropsADeadSendersAndAnEndedJobs) {
  LoadReservations book(std::chrono::seconds(30));
  const LoadReservations::Clock::time_point t0{};
  book.reserve(1, {7, 0}, 1, 1, t0);
  book.reserve(2, {7, 1}, 1, 2, t0);
  book.reserve(2, {8, 0}, 1, 4, t0);
  book.drop_from(1);
  EXPECT_DOUBLE_EQ(book.load(t0), 6);
  book.drop_job(8);
  EXPECT_DOUBLE_EQ(book.load(t0), 2);
}

}  // namespace
}  // namespace drift
