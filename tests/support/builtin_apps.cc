// Every application of apps/, linked in, for tests and benchmarks that run apps in-process.
#include "apps/ballast/ballast_app.h"
#include "apps/chatter/chatter_app.h"
#include "apps/heat2d/heat2d_app.h"
#include "apps/particles/particles_app.h"
#include "apps/pingpong/pingpong_app.h"
#include "tests/support/app_registry.h"

namespace drift {

const AppRegistry& builtin_apps() {
  static const AppRegistry registry = [] {
    AppRegistry r;
    r.add(heat2d::make_heat2d_app());
    r.add(chatter::make_chatter_app());
    r.add(ballast::make_ballast_app());
    r.add(pingpong::make_pingpong_app());
    r.add(particles::make_particles_app());
    return r;
  }();
  return registry;
}

}  // namespace drift
