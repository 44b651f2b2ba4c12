// drift_bench's command line (bench_options.h).
#include "tests/bench/bench_options.h"

#include <boost/program_options.hpp>
#include <set>
#include <sstream>
#include <vector>

namespace po = boost::program_options;

namespace drift::bench {

namespace {

const std::set<std::string> kTables{"migration", "pingpong", "forwarding", "tls"};

po::options_description describe_options(BenchOptions& o, std::string& out, std::string& config,
                                         std::vector<std::string>& only) {
  po::options_description d(
      "drift_bench: migration, latency, throughput and forwarding beside raw TCP\nOptions");
  d.add_options()("help,h", "this text")("quick", po::bool_switch(&o.quick),
                                         "small sizes and few rounds (the CTest smoke test)")(
      "out", po::value(&out)->value_name("FILE"),
      "Markdown results (default: tests/bench/results/migration.md in the source tree)")(
      "base-config", po::value(&config)->value_name("FILE"),
      "base config of the local cluster (default: conf/local.conf)")(
      "base-port", po::value(&o.base_port)->value_name("P"),
      "ports P and P+1 for the 2 daemons, P+2 and P+3 for table (d)'s plaintext ones (default "
      "17900)")(
      "only", po::value(&only)->value_name("TABLE"),
      "measure only this table: migration, pingpong, forwarding or tls (repeatable; default: "
      "all)")(
      "no-pin", po::bool_switch(&o.no_pin),
      "table (b): leave the nodes and the raw ends on any core (default: each on its own)")(
      "plaintext", po::bool_switch(&o.plaintext),
      "run the 2 daemons of tables (a)-(c) without TLS (test.plaintext; a test setting, never on "
      "a real cluster): what the rest costs apart from encryption");
  return d;
}

}  // namespace

Result<BenchOptions> parse_bench_options(int argc, const char* const* argv,
                                         const std::filesystem::path& source_dir) {
  BenchOptions o;
  std::string out, config;
  std::vector<std::string> only;
  const po::options_description d = describe_options(o, out, config, only);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(d).run(), vm);
    po::notify(vm);
    o.help = vm.count("help") > 0;
  } catch (const po::error& e) {
    return Status::error(std::string(e.what()) + " (see drift_bench --help)");
  }
  if (o.base_port == 0 || o.base_port > 65532) {
    return Status::error("--base-port " + std::to_string(o.base_port) + ": needs 4 valid ports");
  }
  for (const std::string& table : only) {
    if (!kTables.count(table)) {
      return Status::error("--only " + table +
                           ": not a table (migration, pingpong, forwarding, tls)");
    }
    o.only.insert(table);
  }
  std::ostringstream help;
  help << d;
  o.help_text = help.str();
  o.out =
      out.empty() ? source_dir / "tests/bench/results/migration.md" : std::filesystem::path(out);
  o.base_config = config.empty() ? source_dir / "conf/local.conf" : std::filesystem::path(config);
  return o;
}

}  // namespace drift::bench
