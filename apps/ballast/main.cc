// The ballast executable: the worker, the serial reference and driftctl's questions (drift/app_main.h).
#include <drift/app_main.h>

#include "apps/ballast/ballast_app.h"

int main(int argc, char** argv) {
  return drift::app_main(argc, argv, drift::ballast::make_ballast_app());
}
