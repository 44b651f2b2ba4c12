#include "tests/support/task_state.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace drift::test_support {
namespace {

class CounterTask final : public SerializableTask<CounterTask> {
 public:
  void start(Context&) override {}
  void receive(Context&, Message&&) override {}
  void reduced(Context&, std::uint64_t, const std::vector<double>&) override {}
  double load() const override { return 1; }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(count, name, values);
  }

  std::uint64_t count = 0;
  std::string name;
  std::vector<double> values;
};

TEST(TaskState, RoundTrips) {
  CounterTask a;
  a.count = 42;
  a.name = "tile";
  a.values = {1.5, -0.0, 3e300};
  CounterTask b;
  ASSERT_TRUE(restore_task_state(b, save_task_state(a)));
  EXPECT_EQ(b.count, 42u);
  EXPECT_EQ(b.name, "tile");
  EXPECT_EQ(b.values, a.values);
  EXPECT_TRUE(std::signbit(b.values[1]));
}

TEST(TaskState, RefusesTruncatedAndTrailingBytes) {
  CounterTask a;
  a.values = {1, 2, 3};
  std::vector<std::uint8_t> state = save_task_state(a);
  CounterTask b;
  EXPECT_FALSE(restore_task_state(b, std::span(state).first(state.size() - 1)));
  state.push_back(0);
  EXPECT_FALSE(restore_task_state(b, state));
}

}  // namespace
}  // namespace drift::test_support
