// Reading the owner's inputs from the system (owner_detector.h).
#include "node/owner/owner_detector.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <vector>

#include "node/machine/proc_file.h"
#include "node/owner/owner_sessions.h"

namespace drift {

namespace fs = std::filesystem;

namespace {

double seconds(const timespec& t) { return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9; }

std::optional<double> access_time(const fs::path& p) {
  struct stat st{};
  if (::stat(p.c_str(), &st) != 0) return std::nullopt;
  return seconds(st.st_atim);
}

// utmp (384-byte records) or a logind session file; empty when it cannot be read.
std::string file_text(const fs::path& p) { return read_text(p.string(), 4 << 20).value_or(""); }

}  // namespace

double OwnerReadings::idle_s() const {
  const std::optional<double> inputs[] = {session_idle_s, device_idle_s, file_idle_s};
  return owner_idle(inputs);
}

OwnerDetector::OwnerDetector(OwnerInputs inputs, LoadSource load, Paths paths)
    : inputs_(std::move(inputs)), load_(std::move(load)), paths_(std::move(paths)) {}

OwnerReadings OwnerDetector::read(std::chrono::system_clock::time_point now) {
  const double t = std::chrono::duration<double>(now.time_since_epoch()).count();
  OwnerReadings r;
  if (inputs_.sessions) r.session_idle_s = session_idle(t);
  if (inputs_.input_devices) r.device_idle_s = device_idle(t);
  if (!inputs_.activity_file.empty()) r.file_idle_s = file_idle(t);
  if (inputs_.load && load_) r.external_load = load_();
  return r;
}

// utmp first; logind's session files where there is no utmp (newer distributions drop it).
std::vector<std::string> OwnerDetector::session_lines() {
  std::error_code ec;
  if (fs::exists(paths_.utmp, ec)) {
    const std::string bytes = file_text(paths_.utmp);
    return utmp_session_lines(
        std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  }
  std::vector<std::string> lines;
  if (fs::is_directory(paths_.logind_sessions, ec)) {
    for (fs::directory_iterator it(paths_.logind_sessions, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->path().extension() == ".ref") continue;  // logind's fifo references
      if (auto line = logind_session_line(file_text(it->path()))) lines.push_back(*line);
    }
    return lines;
  }
  if (!told_headless_) {
    told_headless_ = true;
    spdlog::info("owner detector: no {} and no {}: no login sessions on this machine (headless); "
                 "owner idle time comes from the other inputs",
                 paths_.utmp.string(), paths_.logind_sessions.string());
  }
  return lines;
}

std::optional<double> OwnerDetector::session_idle(double now) {
  std::vector<double> times;
  for (const std::string& line : session_lines()) {
    if (auto t = access_time(paths_.dev / line)) times.push_back(*t);
  }
  return idle_since(now, times);
}

std::optional<double> OwnerDetector::device_idle(double now) const {
  std::vector<double> times;
  std::error_code ec;
  for (fs::directory_iterator it(paths_.input_devices, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with("event") && !name.starts_with("mouse") && name != "mice") continue;
    if (auto t = access_time(it->path())) times.push_back(*t);
  }
  return idle_since(now, times);
}

std::optional<double> OwnerDetector::file_idle(double now) const {
  struct stat st{};
  if (::stat(inputs_.activity_file.c_str(), &st) != 0) return std::nullopt;
  const double mtime = seconds(st.st_mtim);
  return idle_since(now, std::span(&mtime, 1));
}

}  // namespace drift
