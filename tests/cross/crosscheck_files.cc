// The exchange folder of the cross-architecture check (crosscheck_files.h).
#include "tests/cross/crosscheck_files.h"

#include <bit>
#include <cstdint>
#include <fstream>
#include <iterator>

#include "protocol/codec.h"
#include "tests/cross/sample_task_states.h"
#include "tests/protocol/sample_messages.h"

namespace drift::cross {
namespace fs = std::filesystem;
namespace {

constexpr std::uint32_t kMaxBody = 64u << 20;

Status write_file(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return Status::error("cannot write " + path.string());
  return Status::ok();
}

Result<std::vector<std::uint8_t>> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error("cannot read " + path.string());
  std::vector<std::uint8_t> bytes;
  for (auto it = std::istreambuf_iterator<char>(in); it != std::istreambuf_iterator<char>(); ++it) {
    bytes.push_back(static_cast<std::uint8_t>(*it));
  }
  return bytes;
}

fs::path frame_path(const fs::path& dir, const std::string& name) {
  return dir / "frames" / (name + ".frame");
}
fs::path state_path(const fs::path& dir, const std::string& name) {
  return dir / "states" / (name + ".state");
}

Status check_frame(const test::SampleMessage& sample, const std::vector<std::uint8_t>& frame) {
  Result<WireMessage> decoded = decode_frame(frame, kMaxBody);
  if (!decoded) return Status::error("does not decode: " + decoded.error());
  if (!(*decoded == sample.message)) return Status::error("decodes to another message");
  if (encode(*decoded) != frame) return Status::error("encoded again, it gives other bytes");
  return Status::ok();
}

}  // namespace

std::string this_build() {
  const char* order = std::endian::native == std::endian::big ? "big-endian" : "little-endian";
  return std::string(order) + " " + std::to_string(8 * sizeof(void*)) + "-bit";
}

Status write_samples(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir / "frames", ec);
  fs::create_directories(dir / "states", ec);
  if (ec) return Status::error("cannot create " + dir.string() + ": " + ec.message());
  const std::string who = this_build();
  if (Status s = write_file(dir / "written-by", std::vector<std::uint8_t>(who.begin(), who.end()));
      !s) {
    return s;
  }
  for (const test::SampleMessage& m : test::sample_messages()) {
    if (Status s = write_file(frame_path(dir, m.name), encode(m.message)); !s) return s;
  }
  for (const SampleTaskState& t : sample_task_states()) {
    if (Status s = write_file(state_path(dir, t.name), t.bytes); !s) return s;
  }
  return Status::ok();
}

CheckReport check_samples(const fs::path& dir) {
  CheckReport report;
  if (auto who = read_file(dir / "written-by")) {
    report.written_by.assign(who->begin(), who->end());
  } else {
    report.failures.push_back(who.error());
  }
  for (const test::SampleMessage& m : test::sample_messages()) {
    auto frame = read_file(frame_path(dir, m.name));
    Status s = frame ? check_frame(m, *frame) : frame.status();
    if (s) {
      ++report.frames_ok;
    } else {
      report.failures.push_back("frames/" + m.name + ".frame: " + s.message());
    }
  }
  if (sample_task_states().empty()) report.failures.push_back("this build made no task states");
  for (const SampleTaskState& t : sample_task_states()) {
    auto state = read_file(state_path(dir, t.name));
    Status s = state ? check_restores(t, *state) : state.status();
    if (s) {
      ++report.states_ok;
    } else {
      report.failures.push_back("states/" + t.name + ".state: " + s.message());
    }
  }
  return report;
}

}  // namespace drift::cross
