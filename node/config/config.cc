#include "node/config/config.h"

#include "node/config/config_applier.h"
#include "node/config/config_keys.h"
#include "node/config/config_sources.h"
#include "node/machine/cpu_pin.h"
#include "node/net/access_token.h"
#include "node/workers/job_uids.h"
#include "node/workers/machine_arch.h"

#include <arpa/inet.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

namespace drift {

namespace {

using namespace config;

// The names of a comma-separated list, blanks around them trimmed, empty ones skipped.
std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream names(text);
  for (std::string name; std::getline(names, name, ',');) {
    name = trim(name);
    if (!name.empty()) out.push_back(name);
  }
  return out;
}

void apply_emulate_and_balance(Applier& a, NodeConfig& c) {
  using S = BalanceStrategy;
  EmulationSettings& e = c.emulate;
  BalanceSettings& b = c.balance;
  a.real("emulate.speed", 0, true, e.speed)
      .real("emulate.unit_rate", 0, false, e.unit_rate)
      .load_ramps("emulate.load", e.load)
      .named("balance.strategy",
             {S::kNone, S::kHomogeneous, S::kDiffusion, S::kGde, S::kHbm, S::kRid}, b.strategy)
      .named("balance.capacity", {CapacityMode::kStatic, CapacityMode::kDynamic}, b.capacity)
      .named("balance.sensing", {Sensing::kEvery, Sensing::kOnce}, b.sensing)
      .millis("balance.period_ms", 1, 600'000, b.period)
      .real("balance.eff_min", 0, false, b.eff_min)
      .check(b.eff_min <= 1, "balance.eff_min", "must be <= 1")
      .real("balance.hysteresis", 0, true, b.hysteresis)
      .check(b.hysteresis < 1, "balance.hysteresis", "must be < 1")
      .real("balance.capacity_ewma", 0, false, b.capacity_ewma)
      .check(b.capacity_ewma <= 1, "balance.capacity_ewma", "must be <= 1")
      .real("balance.locality_weight", 0, true, b.locality_weight)
      .whole("balance.max_moves", 1, 1'000'000, b.max_moves)
      .flag("balance.step_floor", b.step_floor);
}

void apply_test_hooks(Applier& a, NodeConfig& c) {
  NodeConfig::TestHooks& t = c.test;
  a.flag("test.hooks", t.hooks)
      .flag("test.plaintext", t.plaintext)
      .real("test.drop_frames", 0, true, t.drop_frames)
      .check(t.drop_frames <= 1, "test.drop_frames", "must be <= 1")
      .real("test.duplicate_frames", 0, true, t.duplicate_frames)
      .check(t.duplicate_frames <= 1, "test.duplicate_frames", "must be <= 1")
      .real("test.delay_frames_ms", 0, true, t.delay_frames_ms)
      .check(t.delay_frames_ms <= 60'000, "test.delay_frames_ms", "must be <= 60000")
      .text("test.arch", true, t.arch)
      .check(t.arch.empty() || known_arch(t.arch), "test.arch",
             "must be an architecture drift knows (x86_64, i386, s390x, aarch64, armhf, ppc64el, "
             "riscv64)");
  t.hooks = t.hooks || t.drop_frames > 0 || t.duplicate_frames > 0 || t.delay_frames_ms > 0;
}

// [owner]: thresholds in seconds (fractions allowed) and load per core; the checks keep the
// policy from flapping (a node must not become available in a state that suspends it at once).
void apply_owner(Applier& a, OwnerSettings& o) {
  using K = OwnerPolicyKind;
  OwnerPolicyParams& p = o.policy;
  std::string users;
  a.named("owner.policy", {K::kDesktop, K::kImmediate, K::kNever}, p.kind)
      .real("owner.start_idle", 0, true, p.start_idle_s)
      .real("owner.start_load", 0, true, p.start_load)
      .real("owner.suspend_idle", 0, true, p.suspend_idle_s)
      .real("owner.suspend_load", 0, false, p.suspend_load)
      .real("owner.suspend_load_time", 0, true, p.suspend_load_s)
      .real("owner.continue_idle", 0, true, p.continue_idle_s)
      .real("owner.max_suspend", 0, true, p.max_suspend_s)
      .real("owner.vacate_deadline", 0, false, o.vacate_deadline_s)
      .millis("owner.poll_ms", 10, kOneMinuteMs, o.poll)
      .flag("owner.sessions", o.inputs.sessions)
      .flag("owner.input_devices", o.inputs.input_devices)
      .flag("owner.load", o.inputs.load)
      .path("owner.activity_file", true, o.inputs.activity_file)
      .path("owner.socket", true, o.socket)
      .text("owner.group", true, o.group)
      .text("owner.users", true, users)
      .rule(p.start_load < p.suspend_load, "owner.start_load", p.start_load, "below",
            "owner.suspend_load", p.suspend_load)
      .rule(p.start_idle_s >= p.suspend_idle_s, "owner.start_idle", p.start_idle_s, ">=",
            "owner.suspend_idle", p.suspend_idle_s)
      .rule(p.continue_idle_s >= p.suspend_idle_s, "owner.continue_idle", p.continue_idle_s,
            ">=", "owner.suspend_idle", p.suspend_idle_s);
  for (const std::string& name : comma_list(users)) o.users.insert(name);
}

// [worker]: the user, priority and memory of the processes that run applications, and where
// their executables come from.
void apply_worker(Applier& a, WorkerSettings& w) {
  std::uint64_t nice = static_cast<std::uint64_t>(w.nice);
  a.text("worker.user", false, w.user)
      .text("worker.job_uids", false, w.job_uids);
  if (w.job_uids != "auto" && w.job_uids != "off") {
    auto range = parse_uid_range(w.job_uids);
    a.check(range.is_ok(), "worker.job_uids",
            range.is_ok() ? "" : "expected auto, off or FIRST-LAST: " + range.error());
  }
  a.whole("worker.nice", 0, 19, nice)
      .flag("worker.sched_idle", w.sched_idle)
      .flag("worker.huge_pages", w.huge_pages)
      .memory_share("worker.memory_limit", w.memory_limit)
      .words("worker.launcher", w.launcher)
      .path_list("worker.apps_path", w.apps_path)
      .whole("worker.cache_bytes", 0, std::uint64_t{1} << 50, w.cache_bytes)
      .whole("worker.max_binary_bytes", 4096, std::uint64_t{1} << 32, w.max_binary_bytes)
      .millis("worker.stop_grace_ms", 0, kOneMinuteMs, w.stop_grace)
      .millis("worker.query_timeout_ms", 100, 10 * kOneMinuteMs, w.query_timeout);
  w.nice = static_cast<int>(nice);
}

Status apply(const Sources& src, NodeConfig& c) {
  constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
  constexpr std::uint64_t kMinute = 60'000, kTenMinutes = 600'000;
  Applier a(src, c);
  std::string revoked;
  double keep_days = static_cast<double>(c.keep_results.count()) / 86400;
  a.require("node.id").require("cluster.secret_file");
  a.whole("node.id", 1, kMaxU32, c.node_id)
      .text("node.name", false, c.name)
      .address("node.address", c.address)
      .whole("node.port", 1, 65535, c.port)
      .path("node.data_dir", false, c.data_dir)
      .whole("node.workers", 0, 1024, c.workers)
      .real("node.capacity", 0, true, c.capacity)
      .flag("node.accept_tasks", c.accept_tasks)
      .whole("node.inline_handler_us", 0, 10'000, c.inline_handler_us)
      .whole("node.memory_limit", 0, std::uint64_t{1} << 62, c.memory_limit)
      .text("node.cpu", false, c.cpu)
      .whole("migration.chunk_bytes", 4096, 64u << 20, c.chunk_bytes)
      .millis("migration.pointer_ttl_ms", 1, 3'600'000, c.pointer_ttl)
      .text("cluster.name", false, c.cluster_name)
      .path("cluster.secret_file", false, c.secret_file)
      .secret("cluster.secret_file", c.secret)
      .seeds("cluster.seeds", c.seeds)
      .text("cluster.revoked_tokens", true, revoked)
      .path("cluster.tls_ca", true, c.tls_ca)
      .path("cluster.tls_cert", true, c.tls_cert)
      .path("cluster.tls_key", true, c.tls_key)
      .millis("membership.heartbeat_ms", 1, kMinute, c.heartbeat_interval)
      .whole("membership.group_size", 1, 1024, c.group_size)
      .real("membership.phi_threshold", 0, false, c.phi_threshold)
      .millis("membership.min_std_dev_ms", 1, kMinute, c.min_std_dev)
      .millis("membership.acceptable_pause_ms", 0, kTenMinutes, c.acceptable_pause)
      .millis("membership.suspect_timeout_ms", 1, kTenMinutes, c.suspect_timeout)
      .whole("membership.probe_helpers", 0, 64, c.probe_helpers)
      .millis("membership.suspect_timeout_max_ms", 0, kTenMinutes, c.suspect_timeout_max)
      .millis("membership.hang_timeout_ms", 1, kTenMinutes, c.hang_timeout)
      .millis("membership.first_heartbeat_ms", 0, kTenMinutes, c.first_heartbeat)
      .whole("checkpoint.every_steps", 0, kMaxU32, c.checkpoint.every_steps)
      .millis("checkpoint.interval_ms", 0, kTenMinutes * 6, c.checkpoint.interval)
      .millis("checkpoint.stall_ms", 0, kTenMinutes * 6, c.checkpoint.stall)
      .flag("checkpoint.disk", c.checkpoint.disk)
      .millis("checkpoint.disk_wait_ms", 1, kTenMinutes * 6, c.checkpoint.disk_wait)
      .millis("checkpoint.disk_patience_ms", 1, kTenMinutes * 6, c.checkpoint.disk_patience)
      .whole("net.max_frame_bytes", 1024, 1u << 30, c.max_frame_bytes)
      .millis("net.reconnect_min_ms", 1, kTenMinutes, c.reconnect_min)
      .millis("net.reconnect_max_ms", 1, kTenMinutes, c.reconnect_max)
      .whole("net.max_handshakes", 1, 1u << 20, c.max_handshakes)
      .whole("net.max_handshakes_per_address", 1, 1u << 20, c.max_handshakes_per_address)
      .whole("net.connections_per_second", 1, 1u << 20, c.connections_per_second)
      .real("jobs.keep_results", 0, false, keep_days)
      .whole("jobs.max_running", 0, 1u << 20, c.max_running)
      .path("http.tls_cert", true, c.http_tls_cert)
      .path("http.tls_key", true, c.http_tls_key);
  a.check(c.http_tls_cert.empty() == c.http_tls_key.empty(),
          c.http_tls_cert.empty() ? "http.tls_key" : "http.tls_cert",
          "needs the other half: HTTPS needs http.tls_cert and http.tls_key");
  a.http_listen("http.listen", !c.http_tls_cert.empty(), c.http_listen);
  a.check(keep_days <= 3650, "jobs.keep_results", "must be at most 3650 days");
  c.keep_results = std::chrono::seconds(static_cast<std::int64_t>(keep_days * 86400));
  for (const std::string& name : comma_list(revoked)) {
    a.check(check_token_name(name).is_ok(), "cluster.revoked_tokens",
            "'" + name + "' is not a token name (letters, digits and . _ - @)");
    c.revoked_tokens.insert(name);
  }
  const bool certificates = !c.tls_ca.empty() || !c.tls_cert.empty() || !c.tls_key.empty();
  for (const auto& [key, value] : {std::pair{"cluster.tls_ca", &c.tls_ca},
                                   std::pair{"cluster.tls_cert", &c.tls_cert},
                                   std::pair{"cluster.tls_key", &c.tls_key}}) {
    a.check(!certificates || !value->empty(), key,
            "is needed too: member certificates need cluster.tls_ca, cluster.tls_cert and "
            "cluster.tls_key");
  }
  a.check(parse_cpu_setting(c.cpu).has_value(), "node.cpu",
          "must be auto, any or a CPU's number (0, 1, ...)");
  a.check(c.reconnect_max >= c.reconnect_min, "net.reconnect_max_ms",
          "must be >= net.reconnect_min_ms (" + millis_text(c.reconnect_min) + ")")
      .one_of("log.level", {"trace", "debug", "info", "warn", "error"}, c.log_level)
      .path("log.file", true, c.log_file);
  apply_emulate_and_balance(a, c);
  apply_test_hooks(a, c);
  apply_owner(a, c.owner);
  apply_worker(a, c.worker);
  if (c.where("migration.chunk_bytes") == "default") {  // fit the default to a smaller frame
    c.chunk_bytes = std::min(c.chunk_bytes, c.max_frame_bytes - 1024);
  }
  a.check(c.chunk_bytes + 1024 <= c.max_frame_bytes, "migration.chunk_bytes",
          "must leave 1024 bytes of room below net.max_frame_bytes (" +
              std::to_string(c.max_frame_bytes) + ")");
  if (c.name.empty()) c.name = host_name();
  return a.status();
}

}  // namespace

std::string NodeConfig::arch() const { return test.arch.empty() ? machine_arch() : test.arch; }

std::string NodeConfig::where(const std::string& key) const {
  const auto it = origin.find(key);
  return it == origin.end() ? "default" : it->second;
}

const char* driftd_version() { return DRIFT_VERSION_TEXT; }

std::variant<NodeConfig, ConfigHelp, ConfigError> parse_driftd_args(int argc,
                                                                    const char* const argv[]) {
  using namespace config;
  if (wants_help(argc, argv)) return ConfigHelp{help_text()};
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--version") return ConfigHelp{"driftd " DRIFT_VERSION_TEXT "\n"};
  }
  Sources src;
  Status st = read_command_line(argc, argv, src);
  if (st) st = read_config_file(src);
  if (!st) return ConfigError{"driftd: " + st.message()};
  po::notify(src.vm);
  NodeConfig c;
  c.origin = src.origin;
  c.config_file = src.config_file;
  if (st = apply(src, c); !st) return ConfigError{"driftd: " + st.message()};
  return c;
}

}  // namespace drift
