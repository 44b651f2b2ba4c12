// app_main (drift/app_main.h): what an application's executable does with its command line.
#include <drift/app_main.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include <drift/version.h>
#include "sdk/app_query_runner.h"
#include "sdk/option_help.h"
#include "sdk/worker_main.h"

namespace drift {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

const std::vector<std::string> kRunnerOptions = {"serial", "tasks", "steps", "json", "help",
                                                 "version"};

struct SerialArgs {
  bool serial = false;
  bool json = false;
  bool help = false;
  bool version = false;
  JobSpec spec;
};

void print_usage(const Application& app, const char* argv0, std::FILE* to) {
  std::fprintf(to,
               "Usage: %s --serial [--tasks N] [--steps S] [options] [--json]\n"
               "       %s --help | --version\n\n"
               "%s is a drift application. Run it on a cluster with\n"
               "  driftctl run %s [--tasks N] [--steps S] [options]\n"
               "or compute its serial reference here with --serial.\n\n"
               "Options:\n"
               "  --serial       run the serial reference (one core, no cluster)\n"
               "  --tasks N      tasks the job is split into (default: the application's)\n"
               "  --steps S      steps (default: the application's)\n"
               "  --json         print one JSON object instead of the summary\n"
               "  --help         this help\n"
               "  --version      the drift SDK it was built with\n\n%s options:\n",
               argv0, argv0, app.name().c_str(), argv0, app.name().c_str());
  for (const AppOption& o : app_options(app.option_help(), kRunnerOptions)) {
    const std::string synopsis = "--" + o.key + (o.value_name.empty() ? "" : " " + o.value_name);
    std::fprintf(to, "  %-22s %s\n", synopsis.c_str(), o.help.c_str());
  }
}

bool to_number(const std::string& text, std::uint64_t max, std::uint64_t& out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno != 0 || v > max) return false;
  out = v;
  return true;
}

// "--key value", "--key=value" and flags; the error names the argument. Each option once, as
// driftctl run has it (a second --steps was quietly the one that counted).
Result<SerialArgs> parse(const Application& app, int argc, char** argv) {
  SerialArgs a;
  a.spec.app = app.name();
  const auto options = app_options(app.option_help(), kRunnerOptions);
  std::set<std::string> seen;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.starts_with("--")) return Status::error("unexpected argument '" + arg + "'");
    std::string key = arg.substr(2);
    std::string value;
    bool has_value = false;
    if (auto eq = key.find('='); eq != std::string::npos) {
      value = key.substr(eq + 1);
      key = key.substr(0, eq);
      has_value = true;
    }
    if (!seen.insert(key).second) return Status::error("--" + key + " is given more than once");
    auto take_value = [&]() -> Result<std::string> {
      if (has_value) return value;
      if (i + 1 >= argc) return Status::error("--" + key + " needs a value");
      return std::string(argv[++i]);
    };
    if (key == "serial" || key == "json" || key == "help" || key == "version") {
      if (has_value) return Status::error("--" + key + " takes no value");
      (key == "serial" ? a.serial : key == "json" ? a.json : key == "help" ? a.help : a.version) =
          true;
      continue;
    }
    if (key == "tasks" || key == "steps") {
      auto v = take_value();
      if (!v) return v.status();
      std::uint64_t n = 0;
      const std::uint64_t max = key == "tasks" ? 0xffffffffu : ~std::uint64_t{0};
      if (!to_number(*v, max, n)) {
        const bool digits = !v->empty() && v->find_first_not_of("0123456789") == std::string::npos;
        return Status::error("--" + key + " " + *v + ": " +
                             (digits ? "too large (at most " + std::to_string(max) + ")"
                                     : std::string("expected a whole number")));
      }
      if (n == 0) {  // 0 in a JobSpec is the application's default: no such request
        return Status::error("--" + key + " 0: needs at least one (leave the option out for "
                             "the application's default)");
      }
      if (key == "tasks") {
        a.spec.tasks = static_cast<std::uint32_t>(n);
      } else {
        a.spec.steps = n;
      }
      continue;
    }
    const AppOption* option = nullptr;
    for (const AppOption& o : options) {
      if (o.key == key) option = &o;
    }
    if (!option) return Status::error("unknown option --" + key + " (see --help)");
    if (option->value_name.empty()) {
      if (has_value) return Status::error("--" + key + " takes no value");
      a.spec.params[key] = "true";
    } else {
      auto v = take_value();
      if (!v) return v.status();
      a.spec.params[key] = *v;
    }
  }
  return a;
}

int run_serial(const Application& app, SerialArgs& a) {
  if (a.spec.tasks == 0) a.spec.tasks = 1;
  if (Status st = app.validate(a.spec); !st) {
    std::fprintf(stderr, "%s: %s\n", app.name().c_str(), st.message().c_str());
    return kExitUsage;
  }
  const auto began = std::chrono::steady_clock::now();
  auto outcome = app.run_serial(a.spec);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  if (!outcome) {
    std::fprintf(stderr, "%s (serial): %s\n", app.name().c_str(), outcome.error().c_str());
    return kExitFailed;
  }
  if (a.json) {
    nlohmann::json j = {{"app", app.name()},   {"checksum", outcome->checksum},
                        {"details", outcome->details}, {"mode", "serial"},
                        {"steps", a.spec.steps}, {"tasks", a.spec.tasks},
                        {"wall_s", wall}};
    std::cout << j.dump() << "\n";
  } else {
    std::printf("%-11s %s\n%-11s %s\n%-11s %llu\n%-11s %u\n%-11s %.3f s\n", "app",
                app.name().c_str(), "checksum", outcome->checksum.c_str(), "steps",
                static_cast<unsigned long long>(a.spec.steps), "tasks", a.spec.tasks,
                "wall time", wall);
    for (const auto& [key, value] : outcome->details) {
      std::printf("%-11s %s\n", key.c_str(), value.c_str());
    }
  }
  return kExitOk;
}

}  // namespace

int app_main(int argc, char** argv, std::unique_ptr<Application> app) {
  if (!app) {
    std::fprintf(stderr, "drift::app_main: no application\n");
    return kExitFailed;
  }
  const std::string program = argc > 0 ? argv[0] : app->name();
  const char* argv0 = program.c_str();
  if (argc == 3 && std::string(argv[1]) == "--drift-worker") {
    std::uint64_t fd = 0;
    if (!to_number(argv[2], 1 << 20, fd)) {
      std::fprintf(stderr, "%s --drift-worker %s: expected a file descriptor\n", argv0, argv[2]);
      return kExitUsage;
    }
    return run_worker(*app, static_cast<int>(fd));
  }
  if (argc == 2 && std::string(argv[1]) == "--drift-query") {
    return answer_query(*app, stdin, stdout);
  }
  auto args = parse(*app, argc, argv);
  if (!args) {
    std::fprintf(stderr, "%s: %s\n", argv0, args.error().c_str());
    return kExitUsage;
  }
  if (args->help) {
    print_usage(*app, argv0, stdout);
    return kExitOk;
  }
  if (args->version) {
    std::printf("%s (drift SDK %s)\n", app->name().c_str(), kDriftVersion);
    return kExitOk;
  }
  if (args->serial) return run_serial(*app, *args);
  print_usage(*app, argv0, stderr);
  return kExitUsage;
}

}  // namespace drift
