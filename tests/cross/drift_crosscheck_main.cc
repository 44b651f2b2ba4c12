// drift_crosscheck: the cross-architecture check of the wire format and of saved task state.
//   drift_crosscheck encode DIR   write every sample message's frame and sample task state
//   drift_crosscheck decode DIR   check what another build wrote into DIR against this build's
// Built for every architecture (scripts/cross-build.sh); scripts/cross-test.sh runs each
// architecture's encoder against every architecture's decoder. Exit 0 ok, 1 a check failed,
// 2 usage.
#include <cstdio>
#include <string>

#include "tests/cross/crosscheck_files.h"

int main(int argc, char** argv) {
  using namespace drift::cross;
  if (argc != 3 || (std::string(argv[1]) != "encode" && std::string(argv[1]) != "decode")) {
    std::fprintf(stderr, "usage: drift_crosscheck encode|decode DIR\n");
    return 2;
  }
  const std::string dir = argv[2];
  if (std::string(argv[1]) == "encode") {
    if (drift::Status s = write_samples(dir); !s) {
      std::fprintf(stderr, "drift_crosscheck: %s\n", s.message().c_str());
      return 1;
    }
    std::printf("encode (%s): wrote the sample frames and task states into %s\n",
                this_build().c_str(), dir.c_str());
    return 0;
  }
  const CheckReport r = check_samples(dir);
  for (const std::string& f : r.failures) std::printf("FAIL %s\n", f.c_str());
  std::printf("decode (%s) of %s (written by a %s build): %d frames and %d task states ok, %zu "
              "failed\n",
              this_build().c_str(), dir.c_str(), r.written_by.c_str(), r.frames_ok, r.states_ok,
              r.failures.size());
  return r.failures.empty() ? 0 : 1;
}
