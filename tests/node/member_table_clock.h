// The names and the start time the member-table tests share.
#pragma once

#include <chrono>

#include "node/membership/member_table.h"

namespace drift::member_table_test {

using std::chrono::milliseconds;
using TimePoint = MemberTable::TimePoint;
using State = MemberState;

inline const TimePoint kT0{std::chrono::hours(1)};

}  // namespace drift::member_table_test
