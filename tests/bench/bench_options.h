// drift_bench's command line: --quick (smaller sizes and fewer rounds, for the CTest smoke
// test), --out FILE (the Markdown results), --base-port P (the local cluster's first port),
// --only TABLE (measure one table: migration, pingpong or forwarding; repeatable), --no-pin
// (table (b) without giving each node its own core).
#pragma once

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>

#include <drift/status.h>

namespace drift::bench {

struct BenchOptions {
  bool quick = false;
  std::filesystem::path out;
  std::filesystem::path base_config;  // the local cluster's base config
  std::uint16_t base_port = 17900;
  std::set<std::string> only;  // tables to measure; empty: all
  bool no_pin = false;
  bool plaintext = false;  // the main cluster without TLS (test.plaintext)
  bool help = false;
  std::string help_text;

  bool wants(const std::string& table) const { return only.empty() || only.count(table) > 0; }
};

// Defaults for `out` and `base_config` come from the source tree the program was built from.
Result<BenchOptions> parse_bench_options(int argc, const char* const* argv,
                                         const std::filesystem::path& source_dir);

}  // namespace drift::bench
