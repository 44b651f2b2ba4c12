// The application `driftctl run APP` names, on the machine driftctl runs on: an installed one by
// name (found on the apps path: $DRIFT_APPS_PATH, else lib/drift/apps beside driftctl's bin/),
// or an executable of the user's own by path (anything with a '/', "./wave"). driftctl asks it
// (protocol/app_query.h) for its options, to check a job, and for the serial reference; it runs
// as the user, like any program they start.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <drift/status.h>
#include "protocol/app_query.h"

namespace drift::ctl {

struct AppExecutable {
  std::string path;
  bool own = false;  // given by path: shipped with the job; else installed on every node
};

// Names with a '/' are paths; others are looked up on the apps path.
Result<AppExecutable> find_app_executable(const std::string& app);

// Runs `path --drift-query` and returns its answer (or why there is none).
Result<AppAnswer> ask_executable(const std::string& path, const AppQuery& query,
                                 std::chrono::milliseconds timeout = std::chrono::seconds(600));

// The application's answer to kValidate or kSerial of `spec`, found by name or path; an answer
// that is not ok becomes the error (its text names the option).
Result<AppAnswer> ask_app_about(const std::string& app, const JobSpec& spec, AppQueryKind kind);

// The installed applications (name, path), for `driftctl run --help`.
std::vector<std::pair<std::string, std::string>> installed_apps();

}  // namespace drift::ctl
