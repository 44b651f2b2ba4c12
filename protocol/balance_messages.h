// The balancers' messages between daemons (docs/architecture.md §8): a receiver's request for load, a
// sender's reservation at its destination, and a request to split or merge a job's tasks. Part
// of WireMessage (messages.h).
#pragma once

#include <cstdint>

#include "protocol/msg_type.h"
#include <drift/wire_field.h>
#include "protocol/wire_types.h"

namespace drift {

// Receiver-initiated diffusion (seed 004): an underloaded node asks a neighbour for `amount` of
// load; the neighbour picks tasks and migrates them (or does nothing if its view disagrees).
struct BalanceRequest {
  static constexpr MsgType kType = MsgType::kBalanceRequest;
  std::uint32_t from = 0;
  double amount = 0;     // load units wanted
  double load = 0;       // the requester's load and capacity, for the sender's re-check
  double capacity = 0;
  double floor = 0;  // the requester's step floor, seconds (balancer/load_graph.h)

  friend bool operator==(const BalanceRequest&, const BalanceRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(from, amount, load, capacity, floor);
  }
};

// Balancing sender -> destination, as soon as the move is decided: count this task's load as on
// its way here (node/balance/load_reservations.h). The offer follows once the sender's worker reaches the
// task, which on a busy slow machine takes seconds; it, or the sender's MigrationDone giving the
// move up, ends the reservation.
struct BalanceReservation {
  static constexpr MsgType kType = MsgType::kBalanceReservation;
  TaskId task;
  std::uint64_t epoch = 0;  // the task's move count once it arrives, as its offer will say
  double load = 0;          // the task's load in the sender's units

  friend bool operator==(const BalanceReservation&, const BalanceReservation&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task, epoch, load);
  }
};

// A node's balancer -> the job's root: change the job's decomposition with the next step's
// reduction (docs/architecture.md §8, granularity). kSplit: `task` gives half its work to a spare task, one
// on node `dest` if the root knows one there (`partner` unused); kMerge: `task` absorbs
// `partner`, both on the sender.
struct GrainRequest {
  static constexpr MsgType kType = MsgType::kGrainRequest;
  std::uint64_t job = 0;
  GrainChange change;
  std::uint32_t dest = 0;

  friend bool operator==(const GrainRequest&, const GrainRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, change, dest);
  }
};

}  // namespace drift
