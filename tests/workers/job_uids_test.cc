// job_uids: a user id of its own for each job's workers, the range's text and its mapping.
#include "node/workers/job_uids.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace drift {
namespace {

TEST(JobUidsTest, JobsHeldAtOnceNeverShareAUid) {
  JobUids uids(UidRange{100, 102});
  auto a = uids.acquire(1), b = uids.acquire(2), c = uids.acquire(3);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ((std::set<uid_t>{a->uid(), b->uid(), c->uid()}), (std::set<uid_t>{100, 101, 102}));
  auto d = uids.acquire(4);
  ASSERT_FALSE(d.is_ok());
  EXPECT_NE(d.error().find("every one of worker.job_uids' 3 user ids (100-102)"),
            std::string::npos)
      << d.error();
}

TEST(JobUidsTest, AUidGivenBackIsTheLastToBeGivenAgain) {
  JobUids uids(UidRange{100, 103});
  std::optional<JobUids::Lease> first(std::move(*uids.acquire(1)));
  EXPECT_EQ(first->uid(), 100u);
  first.reset();  // the job left: 100 is free, but 101..103 come first
  EXPECT_EQ(uids.held(), 0u);
  std::vector<uid_t> given;
  std::vector<JobUids::Lease> held;
  for (int job = 2; job <= 5; ++job) {
    auto lease = uids.acquire(job);
    ASSERT_TRUE(lease);
    given.push_back(lease->uid());
    held.push_back(std::move(*lease));
  }
  EXPECT_EQ(given, (std::vector<uid_t>{101, 102, 103, 100}));
  held.erase(held.begin() + 1);  // 102 back
  auto again = uids.acquire(6);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->uid(), 102u);
}

TEST(JobUidsTest, AMovedLeaseGivesItsUidBackOnce) {
  JobUids uids(UidRange{7, 7});
  JobUids::Lease kept;
  {
    auto lease = uids.acquire(1);
    ASSERT_TRUE(lease);
    kept = std::move(*lease);
  }
  EXPECT_EQ(uids.held(), 1u);  // the moved-from lease gave nothing back
  EXPECT_FALSE(uids.acquire(2).is_ok());
  kept = JobUids::Lease();
  EXPECT_EQ(uids.held(), 0u);
  EXPECT_TRUE(uids.acquire(3).is_ok());
}

TEST(JobUidsTest, TheRangesTextIsCheckedAndNamed) {
  auto r = parse_uid_range("2100000000-2100065535");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->size(), 65536u);
  for (const char* bad : {"", "5", "0-10", "10-5", "a-b", "1-4294967295", "1-99999999999", "-3"}) {
    auto p = parse_uid_range(bad);
    EXPECT_FALSE(p.is_ok()) << bad;
    if (!p.is_ok()) {
      EXPECT_NE(p.error().find(std::string("'") + bad + "'"), std::string::npos) << p.error();
    }
  }
}

TEST(JobUidsTest, ARangeIsMappedOnlyWhenOneLineOfTheMapHoldsItAll) {
  const UidRange range{2100000000, 2100065535};
  EXPECT_TRUE(range_mapped(range, "         0          0 4294967295\n"));
  EXPECT_FALSE(range_mapped(range, "0 100000 65536\n"));  // a container's usual map
  EXPECT_FALSE(range_mapped(range, "0 0 2100000100\n"));  // only part of it
  EXPECT_TRUE(range_mapped(range, "0 0 1000\n2100000000 5000000 65536\n"));
  EXPECT_FALSE(range_mapped(range, ""));
}

}  // namespace
}  // namespace drift
