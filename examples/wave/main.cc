// The wave executable: `./wave --serial --steps 500`, or `driftctl run ./wave --tasks 8`.
#include <drift/app_main.h>

#include "wave_app.h"

int main(int argc, char** argv) { return drift::app_main<wave::WaveApp>(argc, argv); }
