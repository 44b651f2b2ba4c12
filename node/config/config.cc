#include "node/config/config.h"

#include "node/config/config_keys.h"

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

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

constexpr const char* kCommandLine = "command line";
constexpr std::uint64_t kOneMinuteMs = 60'000;

// ---- reading the sources -------------------------------------------------------------------

struct FileEntry {
  std::string key;
  std::string value;
  std::string origin;  // "file:line"
};

// Everything read so far: Boost's map plus where each key (and each seeds value) came from.
struct Sources {
  po::variables_map vm;
  std::map<std::string, std::string> origin;
  std::vector<FileEntry> file_entries;
  std::string config_file;
  fs::path config_dir;
};

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n\v\f");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n\v\f");
  return std::string(s.substr(first, last - first + 1));
}

Result<std::string> read_whole_file(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Status::error("cannot read: Is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::error(std::string("cannot read: ") +
                         (errno ? std::strerror(errno) : "cannot open"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::error("cannot read: I/O error");
  return text.str();
}

// "--node.prot=1" -> "node.prot".
std::string key_name(const std::string& option) {
  const auto start = option.find_first_not_of('-');
  if (start == std::string::npos) return option;
  return option.substr(start, option.find('=') - start);
}

Status read_command_line(int argc, const char* const argv[], Sources& src) {
  const auto style =
      po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
  const po::options_description options = command_line_options();  // parsed_options points here
  try {
    const po::parsed_options parsed =
        po::command_line_parser(argc, argv).options(options).style(style).run();
    for (const auto& option : parsed.options) {
      if (option.string_key.empty()) {  // a positional argument: driftd takes none
        return Status::error("unexpected argument '" + option.original_tokens.front() +
                             "' (command line); " + usage());
      }
      src.origin[option.string_key] = kCommandLine;
    }
    po::store(parsed, src.vm);
  } catch (const po::unknown_option& e) {
    return Status::error("unknown key '" + key_name(e.get_option_name()) + "' (command line); " +
                         usage());
  } catch (const po::error& e) {
    return Status::error(std::string(e.what()) + " (command line); " + usage());
  }
  src.origin.erase("config");
  return Status::ok();
}

// Maps each key of the INI text to its line, the way Boost reads the file: '#' starts a comment
// anywhere, "[section]" prefixes the names after it, every other non-blank line is name = value.
Result<std::vector<FileEntry>> scan_ini(const std::string& text, const std::string& file,
                                        const po::options_description& keys) {
  std::vector<FileEntry> entries;
  std::map<std::string, int> first_line;
  std::istringstream in(text);
  std::string raw, section;
  for (int line = 1; std::getline(in, raw); ++line) {
    const std::string at = file + ":" + std::to_string(line);
    const std::string s = trim(std::string_view(raw).substr(0, raw.find('#')));
    if (s.empty()) continue;
    if (s.front() == '[' && s.back() == ']') {
      section = trim(std::string_view(s).substr(1, s.size() - 2));
      if (section.empty()) return Status::error(at + ": empty section name '" + s + "'");
      if (section.back() != '.') section += '.';
      continue;
    }
    const auto eq = s.find('=');
    if (eq == std::string::npos) {
      return Status::error(at + ": expected 'name = value' or '[section]', got '" + s + "'");
    }
    FileEntry e{section + trim(std::string_view(s).substr(0, eq)), trim(s.substr(eq + 1)), at};
    if (!keys.find_nothrow(e.key, false)) {
      return Status::error(at + ": unknown key '" + e.key + "'");
    }
    const auto [seen, fresh] = first_line.emplace(e.key, line);
    if (!fresh && !repeats(e.key)) {
      return Status::error(at + ": " + e.key + " = '" + e.value + "': already set on line " +
                           std::to_string(seen->second));
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

// Stored after the command line, so store() keeps every value given there (PRIOR-ART).
Status read_config_file(Sources& src) {
  if (!src.vm.count("config")) return Status::ok();
  src.config_file = src.vm["config"].as<std::string>();
  auto text = read_whole_file(src.config_file);
  if (!text) {
    return Status::error("--config '" + src.config_file + "' (command line): " + text.error());
  }
  const po::options_description keys = key_options();
  auto entries = scan_ini(*text, src.config_file, keys);
  if (!entries) return entries.status();
  try {
    std::istringstream in(*text);
    po::store(po::parse_config_file(in, keys), src.vm);
  } catch (const po::error& e) {
    return Status::error(src.config_file + ": " + e.what());
  }
  for (const auto& e : *entries) src.origin.emplace(e.key, e.origin);  // command line stays
  src.file_entries = std::move(*entries);
  src.config_dir = fs::path(src.config_file).parent_path();
  return Status::ok();
}

// ---- turning strings into values -----------------------------------------------------------

struct Raw {
  std::string key;
  std::string value;
  std::string origin;
};

Status invalid(const Raw& r, const std::string& problem) {
  return Status::error(r.key + " = '" + r.value + "' (" + r.origin + "): " + problem);
}

std::string range_text(std::uint64_t lo, std::uint64_t hi) {
  return "must be " + std::to_string(lo) + ".." + std::to_string(hi);
}

Result<std::uint64_t> parse_whole(const Raw& r, std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t v = 0;
  const char* end = r.value.data() + r.value.size();
  const auto [ptr, ec] = std::from_chars(r.value.data(), end, v);
  if (ec == std::errc::result_out_of_range) return invalid(r, range_text(lo, hi));
  if (ec != std::errc() || ptr != end) return invalid(r, "not a whole number");
  if (v < lo || v > hi) return invalid(r, range_text(lo, hi));
  return v;
}

Result<double> parse_real(const Raw& r, double lo, bool lo_inclusive) {
  double v = 0;
  const char* end = r.value.data() + r.value.size();
  const auto [ptr, ec] = std::from_chars(r.value.data(), end, v);
  if (ec != std::errc() || ptr != end || !std::isfinite(v)) return invalid(r, "not a number");
  if (v < lo || (!lo_inclusive && v == lo)) {
    return invalid(r, std::string("must be ") + (lo_inclusive ? ">= " : "> ") + number_text(lo));
  }
  return v;
}

bool is_ip_or_localhost(const std::string& text) {
  unsigned char buf[sizeof(in6_addr)];
  return text == "localhost" || inet_pton(AF_INET, text.c_str(), buf) == 1 ||
         inet_pton(AF_INET6, text.c_str(), buf) == 1;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "drift-node";
  return buf;
}

// Applies the stored values to a NodeConfig one key at a time; after the first error the rest
// are skipped and status() reports it.
class Applier {
 public:
  Applier(const Sources& src, NodeConfig& c) : src_(src), c_(c) {}

  template <class T>
  Applier& whole(const char* key, std::uint64_t lo, std::uint64_t hi, T& out) {
    if (auto r = next(key)) {
      auto v = parse_whole(*r, lo, hi);
      if (!v) return fail(v.status());
      out = static_cast<T>(*v);
    }
    return *this;
  }

  Applier& millis(const char* key, std::uint64_t lo, std::uint64_t hi,
                  std::chrono::milliseconds& out) {
    std::uint64_t count = static_cast<std::uint64_t>(out.count());
    whole(key, lo, hi, count);
    out = std::chrono::milliseconds(count);
    return *this;
  }

  Applier& real(const char* key, double lo, bool lo_inclusive, double& out) {
    if (auto r = next(key)) {
      auto v = parse_real(*r, lo, lo_inclusive);
      if (!v) return fail(v.status());
      out = *v;
    }
    return *this;
  }

  Applier& text(const char* key, bool may_be_empty, std::string& out) {
    if (auto r = next(key)) {
      if (r->value.empty() && !may_be_empty) return fail(invalid(*r, "must not be empty"));
      out = r->value;
    }
    return *this;
  }

  // A path from the config file is relative to the file's directory.
  Applier& path(const char* key, bool may_be_empty, std::string& out) {
    if (auto r = next(key)) {
      if (r->value.empty() && !may_be_empty) return fail(invalid(*r, "must not be empty"));
      out = from_file(*r) && !r->value.empty() ? resolve(r->value) : r->value;
    }
    return *this;
  }

  Applier& address(const char* key, std::string& out) {
    if (auto r = next(key)) {
      if (!is_ip_or_localhost(r->value)) {
        return fail(invalid(*r, "not a valid IPv4/IPv6 address (or 'localhost')"));
      }
      out = r->value;
    }
    return *this;
  }

  Applier& one_of(const char* key, const std::vector<std::string>& choices, std::string& out) {
    if (auto r = next(key)) {
      std::string list;
      for (const auto& choice : choices) {
        if (r->value == choice) return out = choice, *this;
        list += (list.empty() ? "" : ", ") + choice;
      }
      return fail(invalid(*r, "must be one of " + list));
    }
    return *this;
  }

  Applier& seeds(const char* key, std::vector<Endpoint>& out) {
    if (!ok() || !src_.vm.count(key)) return *this;
    for (const auto& value : src_.vm[key].as<std::vector<std::string>>()) {
      const Raw r{key, value, seed_origin(key, value)};
      std::istringstream items(value);
      for (std::string item; std::getline(items, item, ',');) {
        if (trim(item).empty()) continue;
        auto ep = parse_endpoint(trim(item));
        if (!ep) return fail(invalid(r, ep.error()));
        out.push_back(*ep);
      }
    }
    return *this;
  }

  // Each value is checked with the origin of its own line.
  Applier& load_ramps(const char* key, std::vector<LoadRamp>& out) {
    if (!ok() || !src_.vm.count(key)) return *this;
    for (const auto& value : src_.vm[key].as<std::vector<std::string>>()) {
      const Raw r{key, value, seed_origin(key, value)};
      auto ramp = parse_load_ramp(trim(value));
      if (!ramp) return fail(invalid(r, ramp.error()));
      out.push_back(*ramp);
    }
    return *this;
  }

  // A choice among an enum's values, named by to_string.
  template <class E>
  Applier& named(const char* key, std::initializer_list<E> values, E& out) {
    std::vector<std::string> names;
    for (E v : values) names.emplace_back(to_string(v));
    std::string picked(to_string(out));
    one_of(key, names, picked);
    for (E v : values) {
      if (to_string(v) == picked) out = v;
    }
    return *this;
  }

  Applier& secret(const char* key, std::vector<std::uint8_t>& out) {
    if (!ok()) return *this;
    const Raw r{key, c_.secret_file, c_.where(key)};
    auto bytes = read_whole_file(c_.secret_file);
    if (!bytes) return fail(invalid(r, bytes.error()));
    const std::string secret = trim_trailing(*bytes);
    if (secret.size() < 16) {
      return fail(invalid(
          r, "the secret is " + std::to_string(secret.size()) + " bytes; at least 16 are needed"));
    }
    out.assign(secret.begin(), secret.end());
    return *this;
  }

  Applier& require(const char* key) {
    if (ok() && !src_.vm.count(key)) {
      const std::string in = src_.config_file.empty() ? "the config file" : src_.config_file;
      fail(Status::error("missing required key '" + std::string(key) + "': set it in " + in +
                         " or as --" + key + "=..."));
    }
    return *this;
  }

  Applier& check(bool holds, const char* key, const std::string& problem) {
    if (ok() && !holds) fail(invalid(current(key), problem));
    return *this;
  }

  // A rule between two numeric keys; the error names both with their values and origins.
  Applier& rule(bool holds, const char* key, double value, const char* relation,
                const char* other, double other_value) {
    if (ok() && !holds) {
      fail(Status::error(std::string(key) + " = " + number_text(value) + " (" + c_.where(key) +
                         ") must be " + relation + " " + other + " = " + number_text(other_value) +
                         " (" + c_.where(other) + ")"));
    }
    return *this;
  }

  const Status& status() const { return status_; }

 private:
  bool ok() const { return status_.is_ok(); }
  Applier& fail(Status st) {
    status_ = std::move(st);
    return *this;
  }

  Raw current(const char* key) const {
    const std::string value = src_.vm.count(key) ? src_.vm[key].as<std::string>() : "";
    return {key, value, c_.where(key)};
  }

  std::optional<Raw> next(const char* key) const {
    if (!ok() || !src_.vm.count(key)) return std::nullopt;
    return current(key);
  }

  bool from_file(const Raw& r) const { return r.origin != kCommandLine; }

  std::string resolve(const std::string& p) const {
    if (fs::path(p).is_absolute() || src_.config_dir.empty()) return p;
    return (src_.config_dir / p).string();
  }

  // Each line of a repeated key (seeds, load) has its own origin; the command line replaces
  // them all.
  std::string seed_origin(const char* key, const std::string& value) const {
    if (c_.where(key) == kCommandLine) return kCommandLine;
    for (const auto& e : src_.file_entries) {
      if (e.key == key && e.value == value) return e.origin;
    }
    return c_.where(key);
  }

  static std::string trim_trailing(const std::string& s) {
    const auto last = s.find_last_not_of(" \t\r\n\v\f");
    return last == std::string::npos ? "" : s.substr(0, last + 1);
  }

  const Sources& src_;
  NodeConfig& c_;
  Status status_ = Status::ok();
};

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
      .whole("balance.max_moves", 1, 1'000'000, b.max_moves);
}

void apply_test_hooks(Applier& a, NodeConfig& c) {
  NodeConfig::TestHooks& t = c.test;
  std::string hooks = "false";
  a.one_of("test.hooks", {"true", "false"}, hooks)
      .real("test.drop_frames", 0, true, t.drop_frames)
      .check(t.drop_frames <= 1, "test.drop_frames", "must be <= 1")
      .real("test.duplicate_frames", 0, true, t.duplicate_frames)
      .check(t.duplicate_frames <= 1, "test.duplicate_frames", "must be <= 1")
      .real("test.delay_frames_ms", 0, true, t.delay_frames_ms)
      .check(t.delay_frames_ms <= 60'000, "test.delay_frames_ms", "must be <= 60000");
  t.hooks = hooks == "true" || t.drop_frames > 0 || t.duplicate_frames > 0 || t.delay_frames_ms > 0;
}

// [owner]: thresholds in seconds (fractions allowed) and load per core; the checks keep the
// policy from flapping (a node must not become available in a state that suspends it at once).
void apply_owner(Applier& a, OwnerSettings& o) {
  using K = OwnerPolicyKind;
  OwnerPolicyParams& p = o.policy;
  const std::vector<std::string> flag = {"true", "false"};
  std::string sessions = "true", devices = "true", load = "true";
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
      .one_of("owner.sessions", flag, sessions)
      .one_of("owner.input_devices", flag, devices)
      .one_of("owner.load", flag, load)
      .path("owner.activity_file", true, o.inputs.activity_file)
      .rule(p.start_load < p.suspend_load, "owner.start_load", p.start_load, "below",
            "owner.suspend_load", p.suspend_load)
      .rule(p.start_idle_s >= p.suspend_idle_s, "owner.start_idle", p.start_idle_s, ">=",
            "owner.suspend_idle", p.suspend_idle_s)
      .rule(p.continue_idle_s >= p.suspend_idle_s, "owner.continue_idle", p.continue_idle_s,
            ">=", "owner.suspend_idle", p.suspend_idle_s);
  o.inputs.sessions = sessions == "true";
  o.inputs.input_devices = devices == "true";
  o.inputs.load = load == "true";
}

Status apply(const Sources& src, NodeConfig& c) {
  constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
  constexpr std::uint64_t kMinute = 60'000, kTenMinutes = 600'000;
  Applier a(src, c);
  std::string accept = "true";
  std::string disk = c.checkpoint.disk ? "true" : "false";
  a.require("node.id").require("cluster.secret_file");
  a.whole("node.id", 1, kMaxU32, c.node_id)
      .text("node.name", false, c.name)
      .address("node.address", c.address)
      .whole("node.port", 1, 65535, c.port)
      .path("node.data_dir", false, c.data_dir)
      .whole("node.workers", 0, 1024, c.workers)
      .real("node.capacity", 0, true, c.capacity)
      .one_of("node.accept_tasks", {"true", "false"}, accept)
      .whole("node.inline_handler_us", 0, 10'000, c.inline_handler_us)
      .whole("node.memory_limit", 0, std::uint64_t{1} << 62, c.memory_limit)
      .whole("migration.chunk_bytes", 4096, 64u << 20, c.chunk_bytes)
      .millis("migration.pointer_ttl_ms", 1, 3'600'000, c.pointer_ttl)
      .text("cluster.name", false, c.cluster_name)
      .path("cluster.secret_file", false, c.secret_file)
      .secret("cluster.secret_file", c.secret)
      .seeds("cluster.seeds", c.seeds)
      .millis("membership.heartbeat_ms", 1, kMinute, c.heartbeat_interval)
      .whole("membership.group_size", 1, 1024, c.group_size)
      .real("membership.phi_threshold", 0, false, c.phi_threshold)
      .millis("membership.min_std_dev_ms", 1, kMinute, c.min_std_dev)
      .millis("membership.acceptable_pause_ms", 0, kTenMinutes, c.acceptable_pause)
      .millis("membership.suspect_timeout_ms", 1, kTenMinutes, c.suspect_timeout)
      .whole("membership.probe_helpers", 0, 64, c.probe_helpers)
      .whole("checkpoint.every_steps", 0, kMaxU32, c.checkpoint.every_steps)
      .millis("checkpoint.interval_ms", 0, kTenMinutes * 6, c.checkpoint.interval)
      .millis("checkpoint.stall_ms", 0, kTenMinutes * 6, c.checkpoint.stall)
      .one_of("checkpoint.disk", {"true", "false"}, disk)
      .millis("checkpoint.disk_wait_ms", 1, kTenMinutes * 6, c.checkpoint.disk_wait)
      .whole("net.max_frame_bytes", 1024, 1u << 30, c.max_frame_bytes)
      .millis("net.reconnect_min_ms", 1, kTenMinutes, c.reconnect_min)
      .millis("net.reconnect_max_ms", 1, kTenMinutes, c.reconnect_max);
  a.check(c.reconnect_max >= c.reconnect_min, "net.reconnect_max_ms",
          "must be >= net.reconnect_min_ms (" + millis_text(c.reconnect_min) + ")")
      .one_of("log.level", {"trace", "debug", "info", "warn", "error"}, c.log_level)
      .path("log.file", true, c.log_file);
  apply_emulate_and_balance(a, c);
  apply_test_hooks(a, c);
  apply_owner(a, c.owner);
  if (c.where("migration.chunk_bytes") == "default") {  // fit the default to a smaller frame
    c.chunk_bytes = std::min(c.chunk_bytes, c.max_frame_bytes - 1024);
  }
  a.check(c.chunk_bytes + 1024 <= c.max_frame_bytes, "migration.chunk_bytes",
          "must leave 1024 bytes of room below net.max_frame_bytes (" +
              std::to_string(c.max_frame_bytes) + ")");
  c.accept_tasks = accept == "true";
  c.checkpoint.disk = disk == "true";
  if (c.name.empty()) c.name = host_name();
  return a.status();
}

}  // namespace

std::string NodeConfig::where(const std::string& key) const {
  const auto it = origin.find(key);
  return it == origin.end() ? "default" : it->second;
}

std::variant<NodeConfig, ConfigHelp, ConfigError> parse_driftd_args(int argc,
                                                                    const char* const argv[]) {
  if (wants_help(argc, argv)) return ConfigHelp{help_text()};
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
