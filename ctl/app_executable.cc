#include "ctl/app_executable.h"

#include <unistd.h>

#include <asio.hpp>
#include <filesystem>

#include "node/workers/app_locator.h"
#include "node/workers/app_query_client.h"

namespace drift::ctl {

namespace {

// driftctl runs the user's program as the user, at normal priority, without limits.
const Containment& as_user() {
  static const Containment c = [] {
    Containment x;
    x.nice = 0;
    x.sched_idle = false;
    x.memory_limit = 0;
    x.summary = "as the user";
    return x;
  }();
  return c;
}

}  // namespace

Result<AppExecutable> find_app_executable(const std::string& app) {
  if (app.find('/') != std::string::npos) {
    std::error_code ec;
    if (std::filesystem::is_directory(app, ec)) {
      return Status::error(app + " is a directory, not an executable (an application is an "
                                 "executable built with the drift SDK)");
    }
    if (!std::filesystem::is_regular_file(app, ec)) {
      return Status::error(app + ": no such file (an application is an executable built with the "
                                 "drift SDK, or the name of an installed one)");
    }
    if (::access(app.c_str(), X_OK) != 0) return Status::error(app + " is not executable");
    return AppExecutable{std::filesystem::absolute(app).string(), true};
  }
  auto path = find_app(app, apps_path({}));
  if (!path) return path.status();
  return AppExecutable{*path, false};
}

Result<AppAnswer> ask_executable(const std::string& path, const AppQuery& query,
                                 std::chrono::milliseconds timeout) {
  asio::io_context io;
  std::optional<Result<AppAnswer>> answer;
  ask_app(io, path, {}, as_user(), query, timeout,
          [&](Result<AppAnswer> a) { answer = std::move(a); });
  io.run();
  if (!answer) return Status::error(path + " --drift-query gave no answer");
  return std::move(*answer);
}

Result<AppAnswer> ask_app_about(const std::string& app, const JobSpec& spec, AppQueryKind kind) {
  auto exe = find_app_executable(app);
  if (!exe) return exe.status();
  AppQuery query;
  query.kind = kind;
  query.spec = spec;
  auto answer = ask_executable(exe->path, query);
  if (!answer) return answer.status();
  if (!answer->ok) return Status::error(answer->app + ": " + answer->error);
  return answer;
}

std::vector<std::pair<std::string, std::string>> installed_apps() {
  return list_apps(apps_path({}));
}

}  // namespace drift::ctl
