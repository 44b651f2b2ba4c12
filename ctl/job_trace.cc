// The job's timeline as JSON lines (job_trace.h).
#include "ctl/job_trace.h"

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "observe/job_json.h"

namespace drift::ctl {

namespace {

const char* notice_event(JobNoticeKind kind) {
  switch (kind) {
    case JobNoticeKind::kRecovered:
      return "recovered";
    case JobNoticeKind::kRootChanged:
      return "root_changed";
    case JobNoticeKind::kNotHere:
      return "not_here";
    case JobNoticeKind::kWaiting:
      return "waiting";
    case JobNoticeKind::kSatOut:
      return "sat_out";
    case JobNoticeKind::kQueued:
      return "queued";
  }
  return "notice";
}

}  // namespace

Result<std::unique_ptr<JobTrace>> JobTrace::open(const std::string& path) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) return Status::error("--trace " + path + ": cannot write it: " + std::strerror(errno));
  return std::unique_ptr<JobTrace>(new JobTrace(std::move(out)));
}

void JobTrace::write(nlohmann::json line) {
  line["t"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
  out_ << line.dump() << "\n";
  out_.flush();  // a trace of a run cut short is still there
}

void JobTrace::submitted(const JobSpec& spec) {
  write({{"event", "submitted"}, {"app", spec.app}, {"tasks", spec.tasks}, {"steps", spec.steps}});
}

void JobTrace::progress(const JobProgress& p) {
  write({{"event", "step"}, {"job", job_id_text(p.job)}, {"step", p.step}, {"steps", p.steps}});
}

void JobTrace::notice(const JobNotice& n) {
  nlohmann::json line{{"event", notice_event(n.kind)}, {"node", n.node}, {"text", n.text}};
  if (n.kind == JobNoticeKind::kRecovered) {
    line["step"] = n.step;
    line["steps_recomputed"] = n.steps_recomputed;
    line["recovery_s"] = n.recovery_s;
  }
  write(std::move(line));
}

void JobTrace::end(const JobEndMessage& end) {
  if (const auto* r = std::get_if<JobResult>(&end)) {
    write({{"event", "done"},         {"job", job_id_text(r->job)},
           {"checksum", r->checksum}, {"wall_s", r->wall_s},
           {"step_s", r->step_s},     {"migrations", r->migrations},
           {"recoveries", r->recoveries}, {"steps_recomputed", r->steps_recomputed},
           {"splits", r->splits},     {"merges", r->merges}});
  } else {
    const auto& f = std::get<JobFailed>(end);
    write({{"event", "failed"}, {"job", job_id_text(f.job)}, {"reason", f.reason}});
  }
}

}  // namespace drift::ctl
