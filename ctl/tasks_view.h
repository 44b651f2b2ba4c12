// How `driftctl tasks` shows a TasksReply, sorted by job then index: a table for people
// (JOB, INDEX, NODE, EPOCH, LOAD, FORWARDED) or JSON for scripts:
// {"tasks":[{"job":"0x1a2b3c0001","index":5,"node":3,"epoch":1,"load":1024.0,"forwarded":12}]}.
// The job is written as `run` writes it (task_id_text.h); EPOCH counts the task's moves;
// FORWARDED the messages nodes forwarded to it after it moved. A task no host reported
// (node 0 on the wire) shows NODE "?" and "node":null. No tasks at all: the table is one line,
// "no running tasks"; the JSON {"tasks":[]}.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "protocol/messages.h"

namespace drift::ctl {

std::string tasks_table(const TasksReply& reply);
nlohmann::json tasks_json(const TasksReply& reply);

}  // namespace drift::ctl
