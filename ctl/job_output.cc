#include "ctl/job_output.h"

#include <cstdio>
#include <iostream>

#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/task_id_text.h"

namespace drift::ctl {

void print_notice(const JobNotice& notice) {
  std::fprintf(stderr, "driftctl: job %s: %s\n", format_job_id(notice.job).c_str(),
               notice.text.c_str());
}

int print_report(const JobReport& report, bool json) {
  if (json) {
    std::cout << job_report_json(report).dump() << "\n";
  } else {
    std::cout << job_report_text(report);
  }
  return kExitOk;
}

int print_job_end(const JobEndMessage& end, const std::string& app, bool json) {
  if (const auto* failed = std::get_if<JobFailed>(&end)) {
    const std::string id = failed->job == 0 ? "" : " " + format_job_id(failed->job);
    const bool cancelled = failed->reason.starts_with("cancelled by ");
    return report_failure(kExitFailed, "job" + id + " (" + app + ") " +
                                           (cancelled ? "was " : "failed: ") + failed->reason);
  }
  return print_report(report_of(std::get<JobResult>(end)), json);
}

}  // namespace drift::ctl
