// What a daemon or driftctl asks an application's executable without a cluster
// (`APP --drift-query`: one AppQuery on stdin, one AppAnswer on stdout, Cereal portable binary):
// its name and option help (kInfo); a job spec checked and completed with its defaults, with the
// reduction ops and spare tasks the root needs (kValidate); the serial reference's outcome
// (kSerial); the outcome of a cluster run from its tasks' results (kCombine). The asker bounds
// what it reads, and decodes it with a bounded archive: the executable is the user's code.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <drift/application.h>
#include <drift/types.h>
#include <drift/wire_field.h>

namespace drift {

enum class AppQueryKind : std::uint8_t { kInfo = 0, kValidate = 1, kSerial = 2, kCombine = 3 };
inline constexpr std::uint8_t kAppQueryKindMax = 3;
inline constexpr std::uint8_t kReduceOpWireMax = 2;
// 2 added AppAnswer::memory_per_task; a daemon still reads version 1's answers (no estimate).
inline constexpr std::uint32_t kAppQueryVersion = 2;
inline constexpr std::uint32_t kAppQueryOldestVersion = 1;

struct AppQuery {
  std::uint32_t version = kAppQueryVersion;
  AppQueryKind kind = AppQueryKind::kInfo;
  JobSpec spec;
  std::vector<std::vector<std::uint8_t>> results;  // kCombine: results[i] is task i's

  template <class Archive>
  void serialize(Archive& ar) {
    ar(version);
    wire_enum<kAppQueryKindMax>(ar, kind);
    ar(spec, results);
  }
};

struct AppAnswer {
  std::uint32_t version = kAppQueryVersion;
  bool ok = false;
  std::string error;                 // when not ok: names the option or value
  std::string app;                   // Application::name()
  std::vector<std::string> options;  // Application::option_help()
  JobSpec spec;                      // kValidate: with the application's defaults filled in
  std::vector<ReduceOp> reduce_ops;  // kValidate
  std::uint32_t spare_tasks = 0;     // kValidate
  std::uint64_t memory_per_task = 0; // kValidate: bytes one task needs at most; 0: not stated
  std::string checksum;              // kSerial, kCombine
  std::map<std::string, std::string> details;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(version);
    wire_bool(ar, ok);
    ar(error, app, options, spec);
    if constexpr (Archive::is_loading::value) {
      std::vector<std::uint8_t> raw;
      ar(raw);
      reduce_ops.clear();
      for (std::uint8_t op : raw) {
        if (op > kReduceOpWireMax) throw WireError("reduce op " + std::to_string(op) + " out of range");
        reduce_ops.push_back(static_cast<ReduceOp>(op));
      }
    } else {
      std::vector<std::uint8_t> raw;
      for (ReduceOp op : reduce_ops) raw.push_back(static_cast<std::uint8_t>(op));
      ar(raw);
    }
    ar(spare_tasks, checksum, details);
    if (version >= 2) ar(memory_per_task);
  }
};

}  // namespace drift
