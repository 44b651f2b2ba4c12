// The chatter executable: the worker, the serial reference and driftctl's questions (drift/app_main.h).
#include <drift/app_main.h>

#include "apps/chatter/chatter_app.h"

int main(int argc, char** argv) {
  return drift::app_main(argc, argv, drift::chatter::make_chatter_app());
}
