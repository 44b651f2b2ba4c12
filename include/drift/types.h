// The value types an application sees: a task's id, the job's spec as the user gave it, and the
// changes of a job's decomposition. Fixed-width fields only, so they travel between machines of
// any byte order and word size; the enum is range-checked on load (drift/wire_field.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <drift/wire_field.h>

namespace drift {

struct TaskId {
  std::uint64_t job = 0;
  std::uint32_t index = 0;

  friend bool operator==(const TaskId&, const TaskId&) = default;
  friend auto operator<=>(const TaskId&, const TaskId&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, index);
  }
};

// What the user asked to run. `params` are the application's own options, as strings, validated
// by the application (drift/application.h) with errors naming the key and value.
struct JobSpec {
  std::string app;
  std::uint32_t tasks = 0;
  std::uint64_t steps = 0;
  std::map<std::string, std::string> params;
  // Options for drift itself, not the application (e.g. "chaos_migrations").
  std::map<std::string, std::string> runtime;

  friend bool operator==(const JobSpec&, const JobSpec&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(app, tasks, steps, params, runtime);
  }
};

// A change of a job's decomposition (docs/architecture.md §8, granularity), announced by the job's root
// with one step's reduction and applied by every task of the job just before it takes it.
enum class GrainKind : std::uint8_t { kSplit = 0, kMerge = 1 };
inline constexpr std::uint8_t kGrainKindMax = 1;
inline const char* to_string(GrainKind k) {
  switch (k) {
    case GrainKind::kSplit:
      return "split";
    case GrainKind::kMerge:
      return "merge";
  }
  return "unknown grain change";
}

struct GrainChange {
  GrainKind kind = GrainKind::kSplit;
  std::uint32_t task = 0;     // split: the task that gives half its work; merge: the one that absorbs
  std::uint32_t partner = 0;  // split: the spare task that takes that half; merge: the one absorbed,
                              // which becomes spare

  friend bool operator==(const GrainChange&, const GrainChange&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    wire_enum<kGrainKindMax>(ar, kind);
    ar(task, partner);
  }
};

}  // namespace drift
