#include "node/service/log.h"

#include <spdlog/details/file_helper.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <sys/stat.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace drift {

namespace {

// A file sink that opens its file again, by name, when asked: after logrotate renamed it, the
// next line goes to a new file of the same name.
class ReopenableFileSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit ReopenableFileSink(const std::string& file) { file_.open(file, false); }
  void reopen() { reopen_.store(true); }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    if (reopen_.exchange(false)) file_.reopen(false);
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    file_.write(formatted);
  }
  void flush_() override { file_.flush(); }

 private:
  spdlog::details::file_helper file_;
  std::atomic<bool> reopen_{false};
};

std::shared_ptr<ReopenableFileSink> file_sink;  // set once, before any thread logs
std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> recent_sink;  // likewise

}  // namespace

bool stderr_is_journal() {
  const char* stream = std::getenv("JOURNAL_STREAM");
  if (!stream) return false;
  unsigned long long dev = 0, ino = 0;
  if (std::sscanf(stream, "%llu:%llu", &dev, &ino) != 2) return false;
  struct stat st {};
  return ::fstat(2, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

Status setup_logging(const std::string& level, const std::string& file, const std::string& node) {
  auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off") {
    return Status::error("log.level = '" + level + "': expected trace|debug|info|warn|error");
  }
  std::shared_ptr<spdlog::logger> logger;
  try {
    if (file.empty()) {
      logger = std::make_shared<spdlog::logger>(
          node, std::make_shared<spdlog::sinks::stderr_sink_mt>());
    } else {
      file_sink = std::make_shared<ReopenableFileSink>(file);
      logger = std::make_shared<spdlog::logger>(node, file_sink);
    }
  } catch (const spdlog::spdlog_ex& e) {
    return Status::error("log.file = '" + file + "': " + e.what());
  }
  // The journal stamps each line with the time and the unit: ours would be said twice.
  logger->set_pattern(file.empty() && stderr_is_journal() ? "%n %l %v"
                                                           : "%Y-%m-%d %H:%M:%S.%e %n %^%l%$ %v");
  logger->set_level(lvl);
  recent_sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(kRecentLines);
  recent_sink->set_level(spdlog::level::info);
  logger->sinks().push_back(recent_sink);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
  return Status::ok();
}

std::vector<LogLine> recent_log_lines(std::size_t limit) {
  std::vector<LogLine> out;
  if (!recent_sink) return out;
  for (const auto& m : recent_sink->last_raw(limit)) {
    const auto sv = spdlog::level::to_string_view(m.level);
    out.push_back({std::chrono::duration<double>(m.time.time_since_epoch()).count(),
                   std::string(sv.data(), sv.size()), std::string(m.payload.data(), m.payload.size())});
  }
  return out;
}

void reopen_log() {
  if (file_sink) file_sink->reopen();
}

}  // namespace drift
