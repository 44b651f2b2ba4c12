// Value types of the wire messages: load indices, member records, counters (task ids, job specs
// and grain changes are the SDK's, drift/types.h). Fixed-width fields only (docs/architecture.md §4); enums
// are validated on load by wire_enum() (drift/wire_field.h), never trusted.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <drift/types.h>
#include <drift/wire_field.h>

namespace drift {

enum class MemberState : std::uint8_t { kAlive = 0, kSuspect = 1, kDead = 2 };
inline constexpr std::uint8_t kMemberStateMax = 2;
const char* to_string(MemberState s);

enum class OwnerState : std::uint8_t {
  kAvailable = 0,
  kSuspended = 1,
  kDraining = 2,
  kReclaimed = 3
};
inline constexpr std::uint8_t kOwnerStateMax = 3;
const char* to_string(OwnerState s);

// The load index a node advertises in its heartbeats (docs/architecture.md §5).
struct LoadIndex {
  double task_load = 0;        // abstract load of all hosted tasks
  double utilization = 0;      // seconds of this machine per step for that load
  double capacity = 1;         // load per second this machine processes
  double load_average = 0;     // 1-minute load average of the whole machine
  std::uint64_t free_memory_bytes = 0;
  OwnerState owner = OwnerState::kAvailable;
  std::uint32_t task_count = 0;
  double step_floor = 0;  // seconds a step takes here at least while it holds load
                          // (node/machine/step_overhead.h); 0: none measured
  // The capacity is in the load's own units: measured from the tasks' work, or configured (static,
  // homogeneous). False while a node with dynamic capacity still advertises its start-up
  // estimate, a benchmark in stencil cells per second that may be 100 times another job's rate.
  bool capacity_measured = true;

  friend bool operator==(const LoadIndex&, const LoadIndex&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task_load, utilization, capacity, load_average, free_memory_bytes);
    wire_enum<kOwnerStateMax>(ar, owner);
    ar(task_count, step_floor);
    wire_bool(ar, capacity_measured);
  }
};

// Why the balancer moves a task, as the sender saw it, so the receiver can re-check with its own
// newer view (docs/architecture.md §8 phase 5). `balance` false: a command (driftctl migrate, chaos).
struct BalanceBasis {
  bool balance = false;
  double task_load = 0;        // the task's load in the sender's units
  double sender_load = 0;      // the sender's node load before the move
  double sender_capacity = 0;  // the sender's advertised capacity
  double sender_floor = 0;     // and its step floor, seconds (LoadIndex::step_floor)

  friend bool operator==(const BalanceBasis&, const BalanceBasis&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    wire_bool(ar, balance);
    ar(task_load, sender_load, sender_capacity, sender_floor);
  }
};

// What a node has done for migration, location, balancing and failure detection since it started
// (driftctl status; the fault harness reads suspicions and deaths_declared).
struct NodeCounters {
  std::uint64_t migrations_out = 0;
  std::uint64_t migrations_in = 0;
  std::uint64_t bytes_moved = 0;  // task state sent
  std::uint64_t messages_forwarded = 0;
  std::uint64_t location_updates = 0;  // sent to other nodes
  std::uint64_t heartbeat_bytes = 0;   // heartbeat frames sent, bytes
  std::uint64_t balance_bytes = 0;     // balancing messages sent (receiver requests), bytes
  std::uint64_t balance_rounds = 0;    // balancing rounds that moved at least one task away
  std::uint64_t balance_moves = 0;     // tasks sent away by the balancer
  std::uint64_t suspicions = 0;        // times this node began to suspect another node
  std::uint64_t deaths_declared = 0;   // times this node saw another node become dead
  std::uint64_t refutations = 0;       // times this node refuted a suspicion of itself
  std::uint64_t fences = 0;            // times this node was declared dead and fenced
  std::uint64_t heartbeats_received = 0;
  std::uint64_t late_heartbeats = 0;   // ... that came more than 2 intervals after the previous
  std::uint64_t longest_gap_ms = 0;    // the longest time between two heartbeats of one peer
  std::uint64_t longest_stall_ms = 0;  // the longest our network thread did not run a round
  // Connections closed over something refused (a frame, a handshake, a token) and node messages
  // dropped for naming another sender: what hostile or broken peers cost.
  std::uint64_t refused = 0;

  friend bool operator==(const NodeCounters&, const NodeCounters&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(migrations_out, migrations_in, bytes_moved, messages_forwarded, location_updates,
       heartbeat_bytes, balance_bytes, balance_rounds, balance_moves, suspicions, deaths_declared,
       refutations, fences, heartbeats_received, late_heartbeats, longest_gap_ms,
       longest_stall_ms, refused);
  }
};

// One member as seen by the sender; gossiped on heartbeats.
struct MemberInfo {
  std::uint32_t node_id = 0;
  std::uint64_t incarnation = 0;
  std::string name;
  std::string address;  // "host:port" the node listens on
  MemberState state = MemberState::kAlive;
  std::string arch;     // "x86_64", "s390x", ...: which executable of a job it runs

  friend bool operator==(const MemberInfo&, const MemberInfo&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(node_id, incarnation, name, address);
    wire_enum<kMemberStateMax>(ar, state);
    ar(arch);
  }
};

}  // namespace drift
