// Everything an application includes: the Task / Context / Application API, the portable
// archives its state and messages go through, and app_main for its executable.
#pragma once

#include <drift/app_main.h>
#include <drift/application.h>
#include <drift/archives.h>
#include <drift/context.h>
#include <drift/status.h>
#include <drift/task.h>
#include <drift/types.h>
#include <drift/version.h>
