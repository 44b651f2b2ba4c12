#include "node/jobs/job_end_disk.h"

#include <algorithm>

#include <asio/post.hpp>
#include <spdlog/spdlog.h>

#include <drift/archives.h>
#include "node/service/durable_file.h"

namespace drift {

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t kFileVersion = 1;
constexpr const char* kSuffix = ".end";

// One file: the format's version, the end's wall-clock time, the end as the deputy gets it.
struct EndFile {
  std::uint32_t version = kFileVersion;
  std::int64_t ended_ms = 0;  // since the Unix epoch
  JobEnded ended;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(version, ended_ms, ended);
  }
};

}  // namespace

Result<JobEndDisk> JobEndDisk::open(fs::path dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::error("cannot create " + dir.string() + ": " + ec.message());
  return JobEndDisk(std::move(dir));
}

fs::path JobEndDisk::path_of(const fs::path& dir, std::uint64_t job) {
  return dir / (hex_name(job) + kSuffix);
}

Status JobEndDisk::save(const Record& r) const { return save_in(dir_, r); }

Status JobEndDisk::save_in(const fs::path& dir, const Record& r) {
  EndFile file;
  file.ended_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(r.ended.time_since_epoch()).count();
  file.ended.entry = r.entry;
  file.ended.done = std::holds_alternative<JobResult>(r.end);
  if (file.ended.done) {
    file.ended.result = std::get<JobResult>(r.end);
  } else {
    file.ended.failure = std::get<JobFailed>(r.end);
  }
  return write_durably(path_of(dir, r.entry.job), encode_portable(file));
}

void JobEndDisk::erase(std::uint64_t job) const { erase_in(dir_, job); }

void JobEndDisk::erase_in(const fs::path& dir, std::uint64_t job) {
  std::error_code ec;
  fs::remove(path_of(dir, job), ec);
}

void JobEndDisk::save_later(Record record) const {
  // The dir only: a copy of this object would hold the writer itself.
  asio::post(*writer_, [dir = dir_, record = std::move(record)] {
    if (Status st = save_in(dir, record); !st) {
      spdlog::warn("job {:#x}: its end is not kept on disk: {}", record.entry.job, st.message());
    }
  });
}

void JobEndDisk::erase_later(std::uint64_t job) const {
  asio::post(*writer_, [dir = dir_, job] { erase_in(dir, job); });
}

JobEndDisk::Loaded JobEndDisk::load(std::size_t max_ends) const {
  Loaded out;
  std::error_code ec;
  std::vector<fs::path> doomed;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    const std::string name = path.filename().string();
    if (path.extension() == kPartialSuffix) {  // a write a crash interrupted
      doomed.push_back(path);
      continue;
    }
    const auto job = number_of(path.stem().string(), 16);
    const auto skip = [&](const std::string& why) {
      out.problems.push_back(path.string() + ": " + why);
      doomed.push_back(path);
    };
    if (path.extension() != kSuffix || !job) {
      skip("not the end of a job (<16 hex digits>.end)");
      continue;
    }
    auto bytes = read_all(path, kMaxFileBytes);
    if (!bytes) {
      skip(bytes.error());
      continue;
    }
    EndFile file;
    if (Status st = decode_portable(*bytes, file); !st) {
      skip("does not decode: " + st.message());
      continue;
    }
    const JobEnded& e = file.ended;
    const bool consistent = file.version == kFileVersion && e.entry.job == *job &&
                            ended(e.entry.state) && e.done == (e.entry.state == JobState::kDone) &&
                            (e.done ? e.result.job : e.failure.job) == *job;
    if (!consistent) {
      skip("not a consistent end of job " + hex_name(*job));
      continue;
    }
    Record r{e.entry, e.done ? JobArchive::End(e.result) : JobArchive::End(e.failure),
             WallClock::time_point(std::chrono::milliseconds(file.ended_ms))};
    out.ends.push_back(std::move(r));
  }
  if (ec) out.problems.push_back("cannot list " + dir_.string() + ": " + ec.message());
  std::sort(out.ends.begin(), out.ends.end(),
            [](const Record& a, const Record& b) { return a.ended < b.ended; });
  while (out.ends.size() > max_ends) {  // the oldest go, as the archive would drop them
    doomed.push_back(path_of(out.ends.front().entry.job));
    out.ends.erase(out.ends.begin());
  }
  for (const fs::path& p : doomed) fs::remove(p, ec);
  return out;
}

}  // namespace drift
