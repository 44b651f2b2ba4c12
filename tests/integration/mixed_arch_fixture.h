// The fixture of the mixed-architecture tests (label "cross"): a cluster of this build's driftd
// as node 1 and the foreign daemons DRIFT_CROSS_DRIFTD names (foreign_daemons.h) as nodes 2, 3,
// ..., in its order, started with conf/mixed-arch.conf (allowances for emulated daemons) and
// balancing off, so that tasks stay where a test puts them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "tests/integration/migration_harness.h"

namespace drift::test {

class MixedArchTest : public MigrationClusterTest {
 protected:
  // Fatal failure when the variable is unset or malformed, or the daemons do not come up.
  void start_mixed_cluster(int slot);
  // "node 2 (s390x)".
  std::string name(std::uint32_t node) const;

 private:
  std::filesystem::path mixed_arch_config() const;

  std::map<std::uint32_t, std::string> arch_;
};

}  // namespace drift::test
