// The daemon's HTTP endpoint (part of Daemon; docs/architecture.md §13): http.listen serves
// /metrics (Prometheus text), /api/status (the JSON of `driftctl status --json`), /api/jobs (the
// jobs rooted here, as `driftctl jobs --all --json` shows them), /api/events (the node's last
// log lines at info and above: joins, deaths, owner changes, migrations, jobs, recoveries) and
// the dashboard at /. Each is built on the network thread when asked for.
#include <openssl/crypto.h>
#include <spdlog/spdlog.h>

#include <cctype>
#include <ctime>
#include <string_view>

#include "node/daemon.h"
#include "node/http/dashboard_page.h"
#include "node/net/tls_context.h"
#include "node/service/log.h"
#include "observe/job_json.h"
#include "observe/status_json.h"

namespace drift {

namespace {
constexpr const char* kJson = "application/json";
}

Status Daemon::start_http() {
  if (!config_.http_listen) {
    spdlog::info("no HTTP endpoint (http.listen = off)");
    return Status::ok();
  }
  using Page = HttpEndpoint::Page;
  std::map<std::string, HttpEndpoint::Route> routes;
  routes["/metrics"] = {[this](const Principal&) {
    return Page{metrics_text(metrics()), "text/plain; version=0.0.4; charset=utf-8"};
  }};
  routes["/api/status"] = {[this](const Principal&) {
    return Page{status_json(status()).dump(), kJson};
  }};
  routes["/api/jobs"] = {[this](const Principal& who) {  // a user sees their own
    nlohmann::json jobs = nlohmann::json::array();
    for (const JobEntry& e : coordinator_.list(who, allows(who.role, Role::kAdmin)).jobs) {
      nlohmann::json j = job_entry_json(e);
      if (auto view = coordinator_.view(e.job)) {  // running here: what the dashboard draws
        j["first_step"] = view->first_step;
        j["step_s"] = view->step_s;
        j["rollbacks"] = view->rollbacks;
        j["moves"] = view->moves;
        nlohmann::json placement = nlohmann::json::object();
        for (const auto& [node, tasks] : view->tasks_per_node) placement[std::to_string(node)] = tasks;
        j["tasks_per_node"] = placement;
      }
      jobs.push_back(std::move(j));
    }
    return Page{jobs.dump(), kJson};
  }};
  // An admin sees every line; a user only the lines that name a job of theirs ("job 0x…"):
  // another's lines may quote their workers' stderr.
  routes["/api/events"] = {[this](const Principal& who) {
    std::vector<std::string> own;
    if (!allows(who.role, Role::kAdmin)) {
      for (const JobEntry& e : coordinator_.list(who, false).jobs) {
        own.push_back(fmt::format("job {:#x}", e.job));
      }
    }
    const auto shown = [&](const std::string& text) {
      if (allows(who.role, Role::kAdmin)) return true;
      for (const std::string& job : own) {
        for (auto at = text.find(job); at != std::string::npos; at = text.find(job, at + 1)) {
          const std::size_t end = at + job.size();  // "job 0x1a" is not "job 0x1a9"
          if (end == text.size() || !std::isxdigit(static_cast<unsigned char>(text[end]))) {
            return true;
          }
        }
      }
      return false;
    };
    nlohmann::json events = nlohmann::json::array();
    for (const LogLine& line : recent_log_lines(kRecentLines)) {
      if (!shown(line.text)) continue;
      events.push_back({{"time", line.unix_s}, {"level", line.level}, {"text", line.text}});
    }
    return Page{events.dump(), kJson};
  }};
  // The page holds no data: it asks the API, with the token the URL's #token= gives it.
  routes["/"] = {[](const Principal&) { return Page{dashboard_page(), "text/html; charset=utf-8"}; },
                 /*gated=*/false};
  std::optional<HttpEndpoint::Tls> tls;
  if (!config_.http_tls_cert.empty()) {
    tls = HttpEndpoint::Tls{config_.http_tls_cert, config_.http_tls_key,
                            [this](const std::string& authorization) {
                              return http_principal(authorization);
                            }};
  }
  http_ = std::make_unique<HttpEndpoint>(io_, std::move(routes));
  if (Status st = http_->start(*config_.http_listen, std::move(tls)); !st) {
    http_.reset();
    const std::string where = config_.where("http.listen");
    if (where != "default" || !config_.http_tls_cert.empty()) {
      return Status::error("http.listen (" + where + "): " + st.message());
    }
    // The default port taken (another daemon on this machine): the node runs on without it.
    spdlog::warn("no HTTP endpoint: {} (http.listen, default; set another or off)", st.message());
    return Status::ok();
  }
  spdlog::info("HTTP{} endpoint on http{}://{}:{}/ (/metrics, /api/status, /api/jobs, /api/events{})",
               config_.http_tls_cert.empty() ? "" : "S", config_.http_tls_cert.empty() ? "" : "s",
               config_.http_listen->literal_host(), http_->port(),
               config_.http_tls_cert.empty() ? "" : "; a person's token needed");
  return Status::ok();
}

// "Bearer " and a token file's line: the token's identity and key. The key must be the one the
// cluster secret gives that identity (as at TLS), and the token neither expired nor revoked.
Result<Principal> Daemon::http_principal(const std::string& authorization) const {
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.size() > 1024) return Status::error("the Authorization header is too long");
  if (authorization.rfind(kBearer, 0) != 0) {
    return Status::error("no token: send 'Authorization: Bearer ' followed by your token file's "
                         "line (driftctl token create)");
  }
  auto credentials = parse_token_file_text(authorization.substr(kBearer.size()));
  if (!credentials) return Status::error("not a token: " + credentials.error());
  const std::vector<std::uint8_t> expected = tls_psk(config_.secret, credentials->identity);
  if (expected.size() != credentials->key.size() ||
      CRYPTO_memcmp(expected.data(), credentials->key.data(), expected.size()) != 0) {
    return Status::error("the token's key is not this cluster's");
  }
  return principal_of(credentials->identity, static_cast<std::int64_t>(std::time(nullptr)),
                      tls_ ? tls_->revoked() : config_.revoked_tokens);
}

NodeMetrics Daemon::metrics() {
  NodeMetrics m;
  for (NodeStatus& n : status().nodes) {
    const auto s = static_cast<std::size_t>(n.member.state);
    if (s < m.members.size()) ++m.members[s];
    if (n.member.node_id == config_.node_id) m.self = std::move(n);
  }
  m.version = driftd_version();
  m.uptime_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  m.jobs_running = static_cast<std::uint32_t>(coordinator_.active_jobs());
  m.jobs_queued = static_cast<std::uint32_t>(coordinator_.queued_jobs());
  m.worker_processes = static_cast<std::uint32_t>(host_.worker_count());
  m.checkpoint_copies = recovery_.store().copies();
  m.checkpoint_bytes = recovery_.store().bytes();
  m.copies_kept = recovery_.copies_kept();
  m.copies_kept_bytes = recovery_.bytes_kept();
  const JobCoordinator::Totals& jobs = coordinator_.totals();
  m.jobs_done = jobs.done;
  m.jobs_failed = jobs.failed;
  m.jobs_cancelled = jobs.cancelled;
  m.recoveries = jobs.recoveries;
  m.steps_recomputed = jobs.steps_recomputed;
  m.checkpoints_committed = jobs.checkpoints;
  m.http_requests = http_ ? http_->requests() : 0;
  m.heartbeat_received_bytes = transport_.heartbeat_bytes_received();
  m.balance_received_bytes = transport_.balance_bytes_received();
  for (const char* kind : {"admission", "tls_handshake", "hello", "authentication", "frame", "other"}) {
    m.refused[kind] = 0;  // every reason, 0 until it happens: a counter that appears is a reset
  }
  for (const auto& [kind, count] : transport_.refused_by_kind()) m.refused[kind] += count;
  m.refused["forged_sender"] = forged_senders_;
  return m;
}

}  // namespace drift
