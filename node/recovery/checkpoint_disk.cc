// Checkpoint copies on disk (checkpoint_disk.h).
#include "node/recovery/checkpoint_disk.h"

#include "node/service/durable_file.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <asio/post.hpp>
#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <future>
#include <optional>

namespace drift {

namespace fs = std::filesystem;

namespace {

std::string job_dir_name(std::uint64_t job) { return hex_name(job); }

}  // namespace

Result<std::unique_ptr<CheckpointDisk>> CheckpointDisk::open(fs::path dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::error("cannot create " + dir.string() + ": " + ec.message());
  return std::unique_ptr<CheckpointDisk>(new CheckpointDisk(std::move(dir)));
}

CheckpointDisk::CheckpointDisk(fs::path dir) : dir_(std::move(dir)) {}

CheckpointDisk::~CheckpointDisk() { pool_.join(); }

fs::path CheckpointDisk::relative_path(TaskId task, std::uint64_t step) {
  return fs::path(job_dir_name(task.job)) / std::to_string(step) / std::to_string(task.index);
}

CheckpointDisk::Loaded CheckpointDisk::load(const fs::path& dir) {
  Loaded out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  auto entries = [&](const fs::path& p) {
    std::vector<fs::directory_entry> list;
    for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
      list.push_back(*it);
    }
    if (ec) out.problems.push_back("cannot list " + p.string() + ": " + ec.message());
    ec.clear();
    return list;
  };
  for (const auto& job_entry : entries(dir)) {
    const auto job = number_of(job_entry.path().filename().string(), 16);
    if (!job || !job_entry.is_directory()) {
      out.problems.push_back("not a job's checkpoints: " + job_entry.path().string());
      continue;
    }
    for (const auto& step_entry : entries(job_entry.path())) {
      const auto step = number_of(step_entry.path().filename().string(), 10);
      if (!step || !step_entry.is_directory()) {
        out.problems.push_back("not a step's checkpoints: " + step_entry.path().string());
        continue;
      }
      for (const auto& file : entries(step_entry.path())) {
        const std::string name = file.path().filename().string();
        if (file.path().extension() == kPartialSuffix) {
          fs::remove(file.path(), ec);
          if (!ec) ++out.partial_removed;
          ec.clear();
          continue;
        }
        const auto index = number_of(name, 10);
        if (!index || *index > UINT32_MAX || !file.is_regular_file()) {
          out.problems.push_back("not a checkpoint copy: " + file.path().string());
          continue;
        }
        auto bytes = read_all(file.path());
        if (!bytes) {
          out.problems.push_back(bytes.error());
          continue;
        }
        out.bytes += bytes->size();
        out.copies.push_back(
            Copy{TaskId{*job, static_cast<std::uint32_t>(*index)}, *step,
                 std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes).value())});
      }
    }
  }
  return out;
}

void CheckpointDisk::post(std::function<void()> work) { asio::post(pool_, std::move(work)); }

void CheckpointDisk::failed(const std::string& what) {
  ++failures_;
  spdlog::warn("checkpoint.disk: {}", what);
}

void CheckpointDisk::write(TaskId task, std::uint64_t step, State state,
                           std::function<void(bool on_disk)> written) {
  if (!state) {
    if (written) written(false);
    return;
  }
  post([this, task, step, state = std::move(state), written = std::move(written)] {
    const auto tell = [&](bool on_disk) {
      if (written) written(on_disk);
    };
    {
      std::lock_guard lock(mutex_);
      auto it = committed_.find(task.job);
      if (it != committed_.end() && step < it->second) return tell(false);  // the commit deletes it
    }
    const fs::path path = dir_ / relative_path(task, step);
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) {
      failed("cannot create " + path.parent_path().string() + ": " + ec.message());
      return tell(false);
    }
    Status st = write_durably(path, *state);
    if (!st) failed(st.message());
    tell(st.is_ok());
  });
}

void CheckpointDisk::remove_steps(std::uint64_t job,
                                  const std::function<bool(std::uint64_t)>& doomed) {
  const fs::path job_dir = dir_ / job_dir_name(job);
  std::error_code ec;
  if (!fs::exists(job_dir, ec)) return;
  std::vector<fs::path> gone;
  for (fs::directory_iterator it(job_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto step = number_of(it->path().filename().string(), 10);
    if (step && doomed(*step)) gone.push_back(it->path());
  }
  for (const fs::path& p : gone) {
    fs::remove_all(p, ec);
    if (ec) failed("cannot delete " + p.string() + ": " + ec.message());
  }
}

void CheckpointDisk::commit(std::uint64_t job, std::uint64_t step) {
  {
    std::lock_guard lock(mutex_);
    auto& floor = committed_[job];
    floor = std::max(floor, step);
  }
  post([this, job, step] { remove_steps(job, [step](std::uint64_t s) { return s < step; }); });
}

void CheckpointDisk::discard_after(std::uint64_t job, std::uint64_t step) {
  post([this, job, step] { remove_steps(job, [step](std::uint64_t s) { return s > step; }); });
}

void CheckpointDisk::drop_job(std::uint64_t job) {
  {
    std::lock_guard lock(mutex_);
    committed_.erase(job);
  }
  post([this, job] {
    std::error_code ec;
    fs::remove_all(dir_ / job_dir_name(job), ec);
    if (ec) failed("cannot delete " + (dir_ / job_dir_name(job)).string() + ": " + ec.message());
  });
}

void CheckpointDisk::clear() {
  {
    std::lock_guard lock(mutex_);
    committed_.clear();
  }
  post([this] {
    std::error_code ec;
    std::vector<fs::path> jobs;
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
      if (number_of(it->path().filename().string(), 16)) jobs.push_back(it->path());
    }
    for (const fs::path& p : jobs) {
      fs::remove_all(p, ec);
      if (ec) failed("cannot delete " + p.string() + ": " + ec.message());
    }
  });
}

void CheckpointDisk::flush() {
  std::promise<void> done;
  auto future = done.get_future();
  post([&done] { done.set_value(); });
  future.wait();
}

}  // namespace drift
