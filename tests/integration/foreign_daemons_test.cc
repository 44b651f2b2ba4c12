// foreign_daemons: parsing DRIFT_CROSS_DRIFTD.
#include "tests/integration/foreign_daemons.h"

#include <gtest/gtest.h>

namespace drift::test {
namespace {

TEST(ForeignDaemonsTest, ParsesArchAndCommandPerEntry) {
  auto d = parse_foreign_daemons("s390x=qemu-s390x -L /usr/s390x-linux-gnu /b/driftd; i386 = /c/driftd;");
  ASSERT_TRUE(d) << d.error();
  ASSERT_EQ(d->size(), 2u);
  EXPECT_EQ((*d)[0].arch, "s390x");
  EXPECT_EQ((*d)[0].command,
            (std::vector<std::string>{"qemu-s390x", "-L", "/usr/s390x-linux-gnu", "/b/driftd"}));
  EXPECT_EQ((*d)[1].arch, "i386");
  EXPECT_EQ((*d)[1].command, (std::vector<std::string>{"/c/driftd"}));
}

TEST(ForeignDaemonsTest, RefusesEntriesWithoutArchOrCommand) {
  EXPECT_FALSE(parse_foreign_daemons("qemu-s390x /b/driftd"));
  EXPECT_FALSE(parse_foreign_daemons("s390x="));
  EXPECT_FALSE(parse_foreign_daemons("=/b/driftd"));
}

}  // namespace
}  // namespace drift::test
