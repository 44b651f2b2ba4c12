// The whole main() of an application's executable:
//
//   int main(int argc, char** argv) { return drift::app_main<MyApp>(argc, argv); }
//
// The same executable then (a) runs the serial reference for a person
// (`./myapp --serial --steps 100 [--json] [options]`), (b) answers driftctl's and the daemon's
// questions (`--drift-query`: option help, checking a job spec, the checksum of a run), and
// (c) started by a daemon (`--drift-worker FD`), hosts that node's tasks of one job. `--help`
// lists the application's options.
#pragma once

#include <memory>

#include <drift/application.h>

namespace drift {

int app_main(int argc, char** argv, std::unique_ptr<Application> app);

template <class App>
int app_main(int argc, char** argv) {
  return app_main(argc, argv, std::make_unique<App>());
}

}  // namespace drift
