#include "tests/integration/mixed_arch_fixture.h"

#include <fstream>
#include <memory>

#include "tests/integration/foreign_daemons.h"

namespace drift::test {

void MixedArchTest::start_mixed_cluster(int slot) {
  auto foreign = foreign_daemons_from_environment();
  ASSERT_TRUE(foreign) << foreign.error();
  ctl::LocalClusterOptions options;
  options.driftd = bin_dir() / "driftd";
  options.stop_with_parent = true;
  options.ready_timeout = std::chrono::seconds(60);  // emulated daemons start slowly
  arch_[1] = "native";
  for (std::size_t i = 0; i < foreign->size(); ++i) {
    const int k = 2 + static_cast<int>(i);
    options.commands[k] = (*foreign)[i].command;
    if (!(*foreign)[i].apps_dir.empty()) {
      options.node_args[k].push_back("--worker.apps_path=" + (*foreign)[i].apps_dir);
    }
    if (!(*foreign)[i].launcher.empty()) {
      options.node_args[k].push_back("--worker.launcher=" + (*foreign)[i].launcher);
    }
    arch_[static_cast<std::uint32_t>(k)] = (*foreign)[i].arch;
  }
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
  const Status up = cluster_->up(1 + static_cast<int>(foreign->size()), base_port_for(slot),
                                 mixed_arch_config());
  ASSERT_TRUE(up) << up.message();
  wait_for_load_reports(1);
}

std::string MixedArchTest::name(std::uint32_t node) const {
  auto it = arch_.find(node);
  return "node " + std::to_string(node) + " (" + (it == arch_.end() ? "?" : it->second) + ")";
}

std::filesystem::path MixedArchTest::mixed_arch_config() const {
  const auto file = dir_ / "mixed-arch.conf";
  std::ifstream in(std::filesystem::path(DRIFT_SOURCE_DIR) / "conf" / "mixed-arch.conf");
  EXPECT_TRUE(in.good()) << "cannot read conf/mixed-arch.conf";
  std::ofstream out(file, std::ios::trunc);
  out << in.rdbuf() << "\n[balance]\nstrategy = none\n";
  return file;
}

}  // namespace drift::test
