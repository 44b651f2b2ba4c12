// The heat2d executable: the worker, the serial reference and driftctl's questions (drift/app_main.h).
#include <drift/app_main.h>

#include "apps/heat2d/heat2d_app.h"

int main(int argc, char** argv) {
  return drift::app_main(argc, argv, drift::heat2d::make_heat2d_app());
}
