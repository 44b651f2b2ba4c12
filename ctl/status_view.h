// How `driftctl status` shows a StatusReply: a table for people, or JSON for scripts
// ({"responder":…, "nodes":[{"id","name","address","state","member","incarnation","tasks","load",
// "capacity","load_average","utilization","free_memory_bytes","owner","migrations_out",
// "migrations_in","bytes_moved","messages_forwarded","location_updates"}]}). Nodes sorted by id.
// "state" is one word: suspect or dead when the failure detector says so, else the owner state
// (available, suspended, draining, reclaimed); "member" (alive|suspect|dead) and "owner" are its
// two halves. The table's last columns are the counters: MIGR (out/in), MOVED, FWD, LOCUPD.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "protocol/messages.h"

namespace drift::ctl {

std::string status_table(const StatusReply& reply);
nlohmann::json status_json(const StatusReply& reply);

}  // namespace drift::ctl
