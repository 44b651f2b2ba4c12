// Applications by name, linked in: the tests and benchmarks that run apps in-process (and check
// a cluster's checksum against the serial reference) find them here. driftd links none.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <drift/application.h>

namespace drift {

// Applications known to this build, by name.
class AppRegistry {
 public:
  void add(std::unique_ptr<Application> app);
  const Application* find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::map<std::string, std::unique_ptr<Application>> apps_;
};

// The registry with every application in apps/ (tests/support/builtin_apps.cc).
const AppRegistry& builtin_apps();

}  // namespace drift
