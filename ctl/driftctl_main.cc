// driftctl: the command-line client of drift (see driftctl.h).
#include <exception>
#include <iostream>

#include "ctl/driftctl.h"

int main(int argc, char** argv) {
  try {
    return drift::ctl::driftctl_main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "driftctl: " << e.what() << "\n";
    return 1;
  }
}
