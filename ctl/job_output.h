// How driftctl prints a job it follows (`run`, `attach`, `result`): a notice on stderr, and the
// job's end — its report (text or --json) on stdout, or why it failed or who cancelled it.
#pragma once

#include <string>

#include "ctl/job_client.h"
#include "ctl/job_report.h"

namespace drift::ctl {

// "driftctl: job 0x…: TEXT" on stderr.
void print_notice(const JobNotice& notice);
// The report on stdout; kExitOk.
int print_report(const JobReport& report, bool json);
// The report of a JobResult (kExitOk), or "driftctl: job 0x… (APP) failed: …" / "… was
// cancelled by …" (kExitFailed); a job refused before it got an id (0) has none in the text.
int print_job_end(const JobEndMessage& end, const std::string& app, bool json);

}  // namespace drift::ctl
