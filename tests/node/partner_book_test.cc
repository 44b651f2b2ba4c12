// partner_book: message counts between tasks, aged each round, forgotten per task or job.
#include "node/balance/partner_book.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

TEST(PartnerBookTest, CountsAgeAndFade) {
  PartnerBook book;
  const TaskId a{7, 0}, b{7, 1}, c{8, 0};
  book.record(a, b);
  book.record(a, b);
  book.record(a, c, 0.015);
  EXPECT_DOUBLE_EQ(book.partners(a).at(b), 2);
  book.age();
  EXPECT_DOUBLE_EQ(book.partners(a).at(b), 1);
  EXPECT_EQ(book.partners(a).count(c), 0u);  // 0.0075 < the floor
  EXPECT_TRUE(book.partners(b).empty());
}

TEST(PartnerBookTest, ForgetsATaskOrAWholeJob) {
  PartnerBook book;
  book.record({7, 0}, {7, 1});
  book.record({7, 1}, {7, 0});
  book.record({8, 0}, {8, 1});
  book.forget({7, 0});
  EXPECT_TRUE(book.partners({7, 0}).empty());
  EXPECT_FALSE(book.partners({7, 1}).empty());
  book.forget_job(7);
  EXPECT_TRUE(book.partners({7, 1}).empty());
  EXPECT_FALSE(book.partners({8, 0}).empty());
}

}  // namespace
}  // namespace drift
