#include "tests/support/app_registry.h"
#include "apps/heat2d/heat2d_app.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "apps/heat2d/task_result.h"

namespace drift {
namespace {

const Application& heat2d() {
  const Application* app = builtin_apps().find("heat2d");
  EXPECT_NE(app, nullptr);
  return *app;
}

TEST(BuiltinApps, ListsHeat2d) {
  const auto names = builtin_apps().names();
  EXPECT_NE(std::find(names.begin(), names.end(), "heat2d"), names.end());
  EXPECT_EQ(builtin_apps().find("no-such-app"), nullptr);
}

TEST(AppRegistry, AddFindNames) {
  AppRegistry r;
  EXPECT_TRUE(r.names().empty());
  r.add(heat2d::make_heat2d_app());
  r.add(nullptr);
  ASSERT_NE(r.find("heat2d"), nullptr);
  EXPECT_EQ(r.find("heat2d")->name(), "heat2d");
  EXPECT_EQ(r.names(), std::vector<std::string>{"heat2d"});
}

TEST(Heat2dApp, DescribesItself) {
  const Application& app = heat2d();
  EXPECT_EQ(app.name(), "heat2d");
  EXPECT_EQ(app.reduction_ops(), (std::vector<ReduceOp>{ReduceOp::kSum, ReduceOp::kMax}));
  EXPECT_EQ(app.option_help().size(), 4u);
  JobSpec spec{"heat2d", 0, 0, {}, {}};
  ASSERT_TRUE(app.validate(spec));
  EXPECT_EQ(spec.tasks, 4u);
}

TEST(Heat2dApp, SpareTasksComeFromTheSpec) {
  JobSpec spec{"heat2d", 6, 5, {{"size", "20x20"}, {"spare", "2"}}, {}};
  EXPECT_EQ(heat2d().spare_tasks(spec), 2u);
  EXPECT_NE(heat2d().create_task(spec, 5), nullptr);  // a spare task
  EXPECT_EQ(heat2d().create_task(spec, 5)->load(), 0.0);
  EXPECT_EQ(heat2d().spare_tasks(JobSpec{"heat2d", 6, 5, {{"size", "20x20"}}, {}}), 0u);
}

TEST(Heat2dApp, CreatesTasksOnlyForValidIndices) {
  JobSpec spec{"heat2d", 3, 5, {{"size", "20x20"}}, {}};
  EXPECT_NE(heat2d().create_task(spec, 2), nullptr);
  EXPECT_EQ(heat2d().create_task(spec, 3), nullptr);
  spec.params["size"] = "bad";
  EXPECT_EQ(heat2d().create_task(spec, 0), nullptr);
}

TEST(Heat2dApp, CombineNamesTheMalformedResult) {
  JobSpec spec{"heat2d", 3, 5, {{"size", "20x20"}}, {}};
  const auto good = encode_portable(heat2d::TaskResult{1, 0, 0});
  auto out = heat2d().combine(spec, {good, {1, 2, 3}, good});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find("task 1"), std::string::npos) << out.error();
  auto trailing = good;
  trailing.push_back(0);
  out = heat2d().combine(spec, {good, good, trailing});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find("task 2"), std::string::npos) << out.error();
  EXPECT_FALSE(heat2d().combine(spec, {good, good}));
}

TEST(Heat2dApp, CombineSumsPartialChecksumsWrapping) {
  JobSpec spec{"heat2d", 2, 5, {{"size", "20x20"}}, {}};
  auto out = heat2d().combine(spec, {encode_portable(heat2d::TaskResult{~0ULL, 4.0, 0.5}),
                                     encode_portable(heat2d::TaskResult{2, 4.0, 0.5})});
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->checksum, "0000000000000001");
  EXPECT_EQ(out->details.at("residual"), "2.000000e+00");
  EXPECT_EQ(out->details.at("max_change"), "0.5");
}

TEST(Heat2dApp, SerialReferenceHasSixteenHexDigits) {
  auto out = heat2d().run_serial(JobSpec{"heat2d", 4, 20, {{"size", "30x20"}}, {}});
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->checksum.size(), 16u);
  EXPECT_EQ(out->checksum.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_TRUE(out->details.count("residual"));
  EXPECT_FALSE(heat2d().run_serial(JobSpec{"heat2d", 4, 20, {{"size", "1x1"}}, {}}));
}

}  // namespace
}  // namespace drift
