// The pingpong executable: the worker, the serial reference and driftctl's questions (drift/app_main.h).
#include <drift/app_main.h>

#include "apps/pingpong/pingpong_app.h"

int main(int argc, char** argv) {
  return drift::app_main(argc, argv, drift::pingpong::make_pingpong_app());
}
