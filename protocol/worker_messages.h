// The protocol between a daemon and its worker processes (docs/architecture.md §11.2): one
// Unix stream socket per worker, the frames of frame.h (with kWorkerProtocolVersion in the
// header), Cereal portable bodies. The daemon sends the job's setup, creates, installs, freezes
// and drops tasks, delivers their messages (TaskMessage, the same body as between nodes) and asks
// for their state; the worker answers with what each handler did (WorkerEffects, preceded by the
// TaskMessages that leave the worker) and with state in pieces. A worker is the user's code: the
// daemon checks every frame from it as it checks a peer's, and every decode is bounded.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <drift/application.h>
#include <drift/types.h>
#include <drift/wire_field.h>
#include "protocol/messages.h"

namespace drift {

// Bumped when a message below changes; a worker built against another SDK is refused at once.
// Far from the node protocol's versions (frame.h), so one protocol's frames are never the other's.
inline constexpr std::uint16_t kWorkerProtocolVersion = 0x5703;

inline constexpr std::uint8_t kReduceOpMax = 2;

// One external-load ramp of an emulated machine (node/machine/emulation.h).
struct WireLoadRamp {
  double start_s = 0;
  double ramp_s = 0;
  double level = 0;

  friend bool operator==(const WireLoadRamp&, const WireLoadRamp&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(start_s, ramp_s, level);
  }
};

// Daemon -> worker, first: which job the worker hosts and how it runs handlers.
struct WorkerSetup {
  static constexpr MsgType kType = MsgType::kWorkerSetup;
  std::uint64_t job = 0;
  std::uint32_t root = 0;
  std::uint32_t generation = 0;
  std::uint32_t node = 0;
  JobSpec spec;
  std::uint32_t threads = 1;        // handler threads
  std::uint32_t inline_us = 0;      // handlers this short run on the worker's I/O thread
  std::uint64_t max_payload = 0;    // largest payload ctx.send may send (the frame limit)
  std::uint32_t piece_bytes = 1u << 20;  // checkpoint states travel in pieces of this size
  double emulate_speed = 0;         // node/machine/emulation.h; 0 = a real machine
  double emulate_unit_rate = 0;
  std::vector<WireLoadRamp> emulate_load;
  double emulate_elapsed_s = 0;     // seconds the daemon had run when it sent this

  friend bool operator==(const WorkerSetup&, const WorkerSetup&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, root, generation, node, spec, threads, inline_us, max_payload, piece_bytes,
       emulate_speed, emulate_unit_rate, emulate_load, emulate_elapsed_s);
  }
};

// Daemon -> worker: make these tasks afresh (Application::create_task), not started yet.
struct WorkerCreate {
  static constexpr MsgType kType = MsgType::kWorkerCreate;
  std::vector<std::uint32_t> indices;

  friend bool operator==(const WorkerCreate&, const WorkerCreate&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(indices);
  }
};

// Worker -> daemon: the answer to WorkerCreate: the tasks' first loads, in the order asked, or
// why none was made (the spec did not validate, the application made no task).
struct WorkerCreated {
  static constexpr MsgType kType = MsgType::kWorkerCreated;
  bool ok = false;
  std::string error;
  std::vector<double> loads;

  friend bool operator==(const WorkerCreated&, const WorkerCreated&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    wire_bool(ar, ok);
    ar(error, loads);
  }
};

// Daemon -> worker: start every task that has not started (Task::start).
struct WorkerStart {
  static constexpr MsgType kType = MsgType::kWorkerStart;
  std::uint8_t reserved = 0;

  friend bool operator==(const WorkerStart&, const WorkerStart&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(reserved);
  }
};

// Daemon -> worker, about one task. kFreeze: the daemon holds the task's deliveries (a move);
// sends from its neighbours in the worker go out to the daemon too, until kResume (the move
// failed) or kRelease (it moved: the worker forgets it).
enum class TaskControlAction : std::uint8_t { kFreeze = 0, kResume = 1, kRelease = 2 };
inline constexpr std::uint8_t kTaskControlActionMax = 2;

struct WorkerTaskControl {
  static constexpr MsgType kType = MsgType::kWorkerTaskControl;
  std::uint32_t index = 0;
  TaskControlAction action = TaskControlAction::kFreeze;

  friend bool operator==(const WorkerTaskControl&, const WorkerTaskControl&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(index);
    wire_enum<kTaskControlActionMax>(ar, action);
  }
};

// Daemon -> worker: the owner came back (paused) or left. While paused every delivery is held
// by the daemon, so sends between tasks of the worker go out to it too.
struct WorkerPause {
  static constexpr MsgType kType = MsgType::kWorkerPause;
  bool paused = false;

  friend bool operator==(const WorkerPause&, const WorkerPause&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    wire_bool(ar, paused);
  }
};

// Daemon -> worker: write a frozen task's state, after its current handler, in pieces of
// `piece_bytes` (WorkerCaptureSized, then WorkerStateBytes kCapture, then WorkerCaptureDone).
struct WorkerCapture {
  static constexpr MsgType kType = MsgType::kWorkerCapture;
  std::uint32_t index = 0;
  std::uint64_t attempt = 0;
  std::uint32_t piece_bytes = 1u << 20;

  friend bool operator==(const WorkerCapture&, const WorkerCapture&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(index, attempt, piece_bytes);
  }
};

struct WorkerCaptureSized {
  static constexpr MsgType kType = MsgType::kWorkerCaptureSized;
  std::uint32_t index = 0;
  std::uint64_t attempt = 0;
  std::uint64_t total = 0;

  friend bool operator==(const WorkerCaptureSized&, const WorkerCaptureSized&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(index, attempt, total);
  }
};

struct WorkerCaptureDone {
  static constexpr MsgType kType = MsgType::kWorkerCaptureDone;
  std::uint32_t index = 0;
  std::uint64_t attempt = 0;
  bool ok = false;
  std::string error;

  friend bool operator==(const WorkerCaptureDone&, const WorkerCaptureDone&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(index, attempt);
    wire_bool(ar, ok);
    ar(error);
  }
};

// Daemon -> worker: a task arrives (a move, or a rollback's restore) with a state of `total`
// bytes, sent next as WorkerStateBytes kInstall in order. `start`: start it once loaded (a move);
// else it waits for WorkerStart (a rollback). Answered with WorkerInstalled.
struct WorkerInstall {
  static constexpr MsgType kType = MsgType::kWorkerInstall;
  std::uint32_t index = 0;
  std::uint64_t total = 0;
  bool start = true;

  friend bool operator==(const WorkerInstall&, const WorkerInstall&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(index, total);
    wire_bool(ar, start);
  }
};

struct WorkerInstalled {
  static constexpr MsgType kType = MsgType::kWorkerInstalled;
  std::uint32_t index = 0;
  bool ok = false;
  std::string error;
  double load = 0;

  friend bool operator==(const WorkerInstalled&, const WorkerInstalled&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(index);
    wire_bool(ar, ok);
    ar(error, load);
  }
};

// A piece of a task's state: to the worker for an install, from it for a capture or a
// checkpoint (the checkpoint's pieces come before the WorkerEffects that reports it).
enum class StateBytesKind : std::uint8_t { kInstall = 0, kCapture = 1, kCheckpoint = 2 };
inline constexpr std::uint8_t kStateBytesKindMax = 2;

struct WorkerStateBytes {
  static constexpr MsgType kType = MsgType::kWorkerStateBytes;
  StateBytesKind kind = StateBytesKind::kInstall;
  std::uint32_t index = 0;
  std::uint64_t attempt = 0;  // kCapture: the capture's; else 0
  std::uint64_t total = 0;    // kCheckpoint: the whole state's bytes, on every piece; else 0
  std::vector<std::uint8_t> bytes;

  friend bool operator==(const WorkerStateBytes&, const WorkerStateBytes&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    wire_enum<kStateBytesKindMax>(ar, kind);
    ar(index, attempt, total, bytes);
  }
};

// Daemon -> worker: the job ended here; exit.
struct WorkerStop {
  static constexpr MsgType kType = MsgType::kWorkerStop;
  std::uint8_t reserved = 0;

  friend bool operator==(const WorkerStop&, const WorkerStop&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(reserved);
  }
};

// Worker -> daemon, first: the executable is a drift application of this SDK.
struct WorkerReady {
  static constexpr MsgType kType = MsgType::kWorkerReady;
  std::string app;
  std::uint32_t pid = 0;

  friend bool operator==(const WorkerReady&, const WorkerReady&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(app, pid);
  }
};

struct WorkerContribution {
  std::uint64_t step = 0;
  std::vector<double> values;

  friend bool operator==(const WorkerContribution&, const WorkerContribution&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(step, values);
  }
};

// Worker -> daemon: what one handler of task `index` did, besides the messages it sent out of
// the worker (TaskMessage frames just before this one).
struct WorkerEffects {
  static constexpr MsgType kType = MsgType::kWorkerEffects;
  std::uint32_t index = 0;
  std::vector<std::uint32_t> local_partners;  // tasks of the worker it sent to directly
  std::vector<WorkerContribution> contributions;
  bool finished = false;
  std::vector<std::uint8_t> result;  // when finished
  bool failed = false;
  std::string error;  // when failed: the handler threw or called ctx.fail
  bool checkpoint = false;
  std::uint64_t checkpoint_step = 0;
  std::uint64_t checkpoint_bytes = 0;  // sent just before as WorkerStateBytes kCheckpoint
  double load = 0;
  bool splittable = false;
  bool has_merge_partner = false;
  std::uint32_t merge_partner = 0;
  double busy_seconds = 0;  // wall seconds in ctx.compute
  double work_units = 0;
  double cpu_seconds = 0;   // of them, the CPU time (emulated: the wall time; emulated_compute.h)

  friend bool operator==(const WorkerEffects&, const WorkerEffects&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(index, local_partners, contributions);
    wire_bool(ar, finished);
    ar(result);
    wire_bool(ar, failed);
    ar(error);
    wire_bool(ar, checkpoint);
    ar(checkpoint_step, checkpoint_bytes, load);
    wire_bool(ar, splittable);
    wire_bool(ar, has_merge_partner);
    ar(merge_partner, busy_seconds, work_units, cpu_seconds);
  }
};

using WorkerMessage =
    std::variant<WorkerSetup, WorkerCreate, WorkerCreated, WorkerStart, WorkerTaskControl,
                 WorkerPause, WorkerCapture, WorkerCaptureSized, WorkerCaptureDone, WorkerInstall,
                 WorkerInstalled, WorkerStateBytes, WorkerStop, WorkerReady, WorkerEffects,
                 TaskMessage>;

}  // namespace drift
