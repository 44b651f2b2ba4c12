// forger: a test application whose worker lies to its daemon, so the integration tests can check
// that what a worker says is bounded and checked (tests/integration/forged_worker_test.cc). Run
// by a user or asked a question, it is an ordinary application: every task finishes at once with
// its digest, and the job's checksum is their xor. Started as a worker (`--drift-worker FD`), it
// does not use the SDK's worker: it speaks the worker protocol itself and, once its tasks start,
// does what the job's `--forge` says:
//   honest    finishes its own tasks with their digests, as the SDK's worker would;
//   claim     also finishes every other task of the job, with a wrong digest, before its own
//             (the worker hosting task 0 waits 300 ms first, so the claims come in before it);
//   overflow  sends a checkpoint piece of 10 bytes of a 100-byte state for its first task, then
//             one of a state of 2^64 - 5 bytes for its second (announced sizes that wrap a sum);
//   grow      sends a checkpoint piece of a 100-byte state, then 64 pieces of 1 MiB each
//             announcing a state of 2^64 - 1 bytes (bytes beyond any announced size).
#include <drift/app.h>
#include <drift/app_main.h>
#include <drift/archives.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "protocol/frame.h"
#include "protocol/worker_codec.h"
#include "protocol/worker_messages.h"

namespace {

std::uint64_t digest(std::uint32_t task) { return 0x9e3779b97f4a7c15ull * (task + 1); }

class ForgerTask final : public drift::SerializableTask<ForgerTask> {
 public:
  explicit ForgerTask(std::uint32_t index) : index_(index) {}
  void start(drift::Context& ctx) override { ctx.finish(drift::encode_portable(digest(index_))); }
  void receive(drift::Context& ctx, drift::Message&&) override { ctx.fail("forger gets no messages"); }
  void reduced(drift::Context&, std::uint64_t, const std::vector<double>&) override {}
  double load() const override { return 1.0; }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(index_);
  }

 private:
  std::uint32_t index_;
};

class ForgerApp : public drift::Application {
 public:
  std::string name() const override { return "forger"; }
  std::vector<std::string> option_help() const override {
    return {"--forge HOW  honest, claim, overflow or grow (what its worker does)"};
  }
  drift::Status validate(drift::JobSpec& spec) const override {
    if (spec.tasks == 0) spec.tasks = 4;
    if (spec.steps == 0) spec.steps = 1;
    for (const auto& [key, value] : spec.params) {
      if (key != "forge") return drift::Status::error("unknown option --" + key);
    }
    return drift::Status::ok();
  }
  std::unique_ptr<drift::Task> create_task(const drift::JobSpec&,
                                           std::uint32_t index) const override {
    return std::make_unique<ForgerTask>(index);
  }
  std::vector<drift::ReduceOp> reduction_ops() const override { return {drift::ReduceOp::kSum}; }
  drift::Result<drift::JobOutcome> combine(
      const drift::JobSpec&, const std::vector<std::vector<std::uint8_t>>& results) const override {
    std::uint64_t sum = 0;
    for (const auto& r : results) {
      std::uint64_t d = 0;
      if (!drift::decode_portable(r, d)) return drift::Status::error("a result does not decode");
      sum ^= d;
    }
    return outcome(sum);
  }
  drift::Result<drift::JobOutcome> run_serial(const drift::JobSpec& spec) const override {
    std::uint64_t sum = 0;
    for (std::uint32_t t = 0; t < spec.tasks; ++t) sum ^= digest(t);
    return outcome(sum);
  }

 private:
  static drift::JobOutcome outcome(std::uint64_t sum) {
    char text[32];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(sum));
    return drift::JobOutcome{text, {}};
  }
};

// The worker protocol over a blocking socket.
class Link {
 public:
  explicit Link(int fd) : fd_(fd) {}

  bool send(const drift::WorkerMessage& msg) {
    const std::vector<std::uint8_t> bytes = drift::encode_worker(msg);
    for (std::size_t done = 0; done < bytes.size();) {
      const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }

  // The next message; nullopt once the daemon hung up or sent what does not decode.
  std::optional<drift::WorkerMessage> receive() {
    std::array<std::uint8_t, drift::kFrameHeaderSize> head{};
    if (!read_exact(head.data(), head.size())) return std::nullopt;
    auto header = drift::decode_header(head, 256u << 20, drift::kWorkerProtocolVersion);
    if (!header) return std::nullopt;
    std::vector<std::uint8_t> body(header->length);
    if (!read_exact(body.data(), body.size())) return std::nullopt;
    auto msg = drift::decode_worker_body(header->type, body);
    if (!msg) return std::nullopt;
    return std::move(*msg);
  }

 private:
  bool read_exact(std::uint8_t* at, std::size_t n) {
    for (std::size_t done = 0; done < n;) {
      const ssize_t got = ::read(fd_, at + done, n - done);
      if (got <= 0) return false;
      done += static_cast<std::size_t>(got);
    }
    return true;
  }

  int fd_;
};

drift::WorkerStateBytes checkpoint_piece(std::uint32_t index, std::uint64_t total,
                                         std::size_t bytes) {
  drift::WorkerStateBytes piece;
  piece.kind = drift::StateBytesKind::kCheckpoint;
  piece.index = index;
  piece.total = total;
  piece.bytes.assign(bytes, 0x5a);
  return piece;
}

drift::WorkerEffects finished(std::uint32_t index, std::uint64_t value) {
  drift::WorkerEffects e;
  e.index = index;
  e.finished = true;
  e.result = drift::encode_portable(value);
  return e;
}

void forge(Link& link, const std::string& how, std::uint32_t tasks,
           const std::vector<std::uint32_t>& ours) {
  const auto is_ours = [&](std::uint32_t t) {
    return std::find(ours.begin(), ours.end(), t) != ours.end();
  };
  if (how == "overflow" && ours.size() >= 2) {
    link.send(checkpoint_piece(ours[0], 100, 10));
    link.send(checkpoint_piece(ours[1], ~std::uint64_t{0} - 4, 0));
    return;
  }
  if (how == "grow" && !ours.empty()) {
    link.send(checkpoint_piece(ours[0], 100, 10));
    for (int i = 0; i < 64; ++i) link.send(checkpoint_piece(ours[0], ~std::uint64_t{0}, 1u << 20));
    return;
  }
  if (how == "claim") {
    if (is_ours(0)) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (std::uint32_t t = 0; t < tasks; ++t) {
      if (!is_ours(t)) link.send(finished(t, 0xdeadbeefull));
    }
  }
  for (std::uint32_t t : ours) link.send(finished(t, digest(t)));
}

int forging_worker(int fd) {
  Link link(fd);
  link.send(drift::WorkerReady{"forger", static_cast<std::uint32_t>(::getpid())});
  std::string how = "honest";
  std::uint32_t tasks = 0;
  std::vector<std::uint32_t> ours;
  while (auto msg = link.receive()) {
    if (auto* setup = std::get_if<drift::WorkerSetup>(&*msg)) {
      tasks = setup->spec.tasks;
      if (auto it = setup->spec.params.find("forge"); it != setup->spec.params.end()) {
        how = it->second;
      }
    } else if (auto* create = std::get_if<drift::WorkerCreate>(&*msg)) {
      ours.insert(ours.end(), create->indices.begin(), create->indices.end());
      link.send(drift::WorkerCreated{true, "", std::vector<double>(create->indices.size(), 1.0)});
    } else if (std::holds_alternative<drift::WorkerStart>(*msg)) {
      forge(link, how, tasks, ours);
    } else if (std::holds_alternative<drift::WorkerStop>(*msg)) {
      break;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--drift-worker") == 0) {
    return forging_worker(std::atoi(argv[2]));
  }
  return drift::app_main<ForgerApp>(argc, argv);
}
