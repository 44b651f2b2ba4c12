// text_table: padded, right-aligned plain-text tables.
#include "ctl/text_table.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

TEST(TextTableTest, PadsColumnsAndAlignsNumbersRight) {
  TextTable t({"ID", "NAME", "LOAD"});
  t.align_right(0);
  t.align_right(2);
  t.add_row({"1", "node1", "12.5"});
  t.add_row({"10", "n", "3.0"});
  EXPECT_EQ(t.render(),
            "ID  NAME   LOAD\n"
            " 1  node1  12.5\n"
            "10  n       3.0\n");
}

TEST(TextTableTest, ShortRowsArePadded) {
  TextTable t({"A", "B"});
  t.add_row({"x"});
  EXPECT_EQ(t.render(), "A  B\nx\n");
}

}  // namespace
}  // namespace drift::ctl
