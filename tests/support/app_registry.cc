// AppRegistry: applications by name. Filled once at start-up (builtin_apps()), read-only after,
// so concurrent find() calls need no lock.
#include "tests/support/app_registry.h"

#include <utility>

namespace drift {

void AppRegistry::add(std::unique_ptr<Application> app) {
  if (!app) return;
  std::string name = app->name();
  apps_[std::move(name)] = std::move(app);  // a later registration replaces an earlier one
}

const Application* AppRegistry::find(const std::string& name) const {
  auto it = apps_.find(name);
  return it == apps_.end() ? nullptr : it->second.get();
}

std::vector<std::string> AppRegistry::names() const {
  std::vector<std::string> out;
  out.reserve(apps_.size());
  for (const auto& [name, app] : apps_) out.push_back(name);
  return out;
}

}  // namespace drift
