// The applications this build knows (node/application.h's builtin_apps()). Add new apps here.
#include "apps/heat2d/heat2d_app.h"
#include "node/application.h"

namespace drift {

const AppRegistry& builtin_apps() {
  static const AppRegistry registry = [] {
    AppRegistry r;
    r.add(heat2d::make_heat2d_app());
    return r;
  }();
  return registry;
}

}  // namespace drift
