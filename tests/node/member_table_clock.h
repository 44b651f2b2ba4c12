// The names, the start time, the suspect timeout and the members the member-table tests share.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "node/membership/member_table.h"

namespace drift::member_table_test {

using std::chrono::milliseconds;
using TimePoint = MemberTable::TimePoint;
using State = MemberState;

inline const TimePoint kT0{std::chrono::hours(1)};
inline const milliseconds kSuspectTimeout{500};

// Member `id`, "n<id>" at 10.0.0.<id>:7400.
inline MemberInfo info(std::uint32_t id, std::uint64_t incarnation = 1,
                       State state = State::kAlive) {
  return {id, incarnation, "n" + std::to_string(id), "10.0.0." + std::to_string(id) + ":7400",
          state, ""};
}

}  // namespace drift::member_table_test
