#include "node/config/config_keys.h"

#include <cstring>
#include <sstream>
#include <vector>

#include "node/config/config.h"

namespace drift {

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage = "usage: driftd --config FILE [--key=value ...]";

struct KeySpec {
  const char* key;
  const char* arg;
  std::string help;
};

std::vector<KeySpec> key_specs() {
  const NodeConfig d;
  const auto dflt = [](const std::string& v) { return " (default: " + v + ")"; };
  return {
      {"node.id", "N", "this node's id, 1..4294967295 (required)"},
      {"node.name", "NAME", "name in logs and status (default: the host name)"},
      {"node.address", "IP", "IPv4/IPv6 address or 'localhost' to listen on" + dflt(d.address)},
      {"node.port", "PORT", "TCP port to listen on, 1..65535" + dflt(std::to_string(d.port))},
      {"node.data_dir", "DIR", "directory for checkpoints and state" + dflt(d.data_dir)},
      {"node.workers", "N",
       "handler threads in each worker process (one per job here), 0 = one per core" + dflt("0")},
      {"node.capacity", "X", "load per second this machine processes, 0 = measure" + dflt("0")},
      {"node.accept_tasks", "BOOL", "take migrating tasks from other nodes" + dflt("true")},
      {"node.inline_handler_us", "US",
       "handlers of tasks that recently took at most this long run on their worker's I/O "
       "thread, saving two thread hand-offs per message (and states of at most 64 KiB are "
       "loaded and written there); 0 = always on its handler and state threads" +
           dflt(std::to_string(d.inline_handler_us))},
      {"node.memory_limit", "BYTES",
       "incoming task state accepted, 0 = half the free memory" + dflt("0")},
      {"node.cpu", "auto|any|N",
       "the CPU the daemon and its workers run on: auto = one CPU (the (node.id-1)-th allowed, "
       "round robin) when its cgroup allows it less than one core, so its network thread keeps "
       "ahead of its computing workers inside the quota; any = wherever the kernel puts them; "
       "N = CPU N" + dflt(d.cpu)},
      {"migration.chunk_bytes", "BYTES",
       "task state is sent in chunks of this size" + dflt(std::to_string(d.chunk_bytes))},
      {"migration.pointer_ttl_ms", "MS",
       "forwarding pointers unused this long are dropped" + dflt(millis_text(d.pointer_ttl))},
      {"cluster.name", "NAME", "cluster name; peers must match" + dflt(d.cluster_name)},
      {"cluster.secret_file", "FILE", "file holding the shared secret, >= 16 bytes (required)"},
      {"cluster.seeds", "HOST:PORT,...", "nodes to join through; may repeat" + dflt("none")},
      {"cluster.revoked_tokens", "NAME,...",
       "people's tokens (driftctl token create) no longer accepted, by name; read again on "
       "SIGHUP" +
           dflt("none")},
      {"cluster.tls_ca", "FILE",
       "PEM certificates of the cluster's CA: members must then also show a certificate it "
       "signed (scripts/make-cluster-certs.sh makes them)" +
           dflt("none: the secret alone")},
      {"cluster.tls_cert", "FILE", "this member's certificate (PEM, chain), with cluster.tls_ca" +
                                       dflt("none")},
      {"cluster.tls_key", "FILE", "its private key (PEM), with cluster.tls_ca" + dflt("none")},
      {"membership.heartbeat_ms", "MS", "heartbeat interval" + dflt(millis_text(d.heartbeat_interval))},
      {"membership.group_size", "N", "neighbours monitored" + dflt(std::to_string(d.group_size))},
      {"membership.phi_threshold", "PHI",
       "suspect a peer at this phi" + dflt(number_text(d.phi_threshold))},
      {"membership.min_std_dev_ms", "MS",
       "least heartbeat jitter assumed" + dflt(millis_text(d.min_std_dev))},
      {"membership.acceptable_pause_ms", "MS",
       "heartbeat delay tolerated before phi rises" + dflt(millis_text(d.acceptable_pause))},
      {"membership.suspect_timeout_ms", "MS",
       "suspect -> dead without a heartbeat or a positive indirect probe" +
           dflt(millis_text(d.suspect_timeout))},
      {"membership.probe_helpers", "N",
       "members asked to probe a suspect before it is declared dead; 0 = none" +
           dflt(std::to_string(d.probe_helpers))},
      {"membership.suspect_timeout_max_ms", "MS",
       "how long a suspicion no other member confirms lasts before death; it falls to "
       "suspect_timeout_ms as others confirm; 0 = 3 x suspect_timeout_ms" +
           dflt(millis_text(d.suspect_timeout_max))},
      {"membership.hang_timeout_ms", "MS",
       "the heartbeat thread stops beating when the network thread has not run this long, so "
       "a hung daemon is declared dead" + dflt(millis_text(d.hang_timeout))},
      {"membership.first_heartbeat_ms", "MS",
       "a member entering the local group is not suspected before this long, unless its first "
       "four heartbeats came sooner" + dflt(millis_text(d.first_heartbeat))},
      {"checkpoint.every_steps", "N",
       "jobs rooted here checkpoint every N steps, 0 = not by steps" +
           dflt(std::to_string(d.checkpoint.every_steps))},
      {"checkpoint.interval_ms", "MS",
       "... and at the first step boundary this long after the last checkpoint (and 20 times what "
       "that one took), 0 = not by time; both 0 = no checkpoints (a failure restarts the job)" +
           dflt(millis_text(d.checkpoint.interval))},
      {"checkpoint.stall_ms", "MS",
       "a job rooted here none of whose tasks ends a handler for this long (and for 5 times its "
       "longest step) lost a message or a node nobody declared dead, and rolls back to its "
       "checkpoint; 0 = never" +
           dflt(millis_text(d.checkpoint.stall))},
      {"checkpoint.disk", "true|false",
       "also keep every checkpoint copy held here in node.data_dir/checkpoints, so that a node "
       "killed and restarted can give its copies back to their jobs; a job whose task has no copy "
       "left on a live node then waits checkpoint.disk_wait_ms for one to restart instead of "
       "failing (set it on every node)" +
           dflt(d.checkpoint.disk ? "true" : "false")},
      {"checkpoint.disk_wait_ms", "MS",
       "with checkpoint.disk: how long such a job waits for a restarted node's copies, and how "
       "long a restarted node keeps copies no job's root claims" +
           dflt(millis_text(d.checkpoint.disk_wait))},
      {"checkpoint.disk_patience_ms", "MS",
       "with checkpoint.disk: a copy not on disk after this long (a hung disk, an NFS server "
       "gone) is acknowledged from memory, and copies are kept in memory only until the disk "
       "has done every write asked of it (both said in the log)" +
           dflt(millis_text(d.checkpoint.disk_patience))},
      {"net.max_frame_bytes", "BYTES",
       "largest frame accepted" + dflt(std::to_string(d.max_frame_bytes))},
      {"net.reconnect_min_ms", "MS", "first reconnect delay" + dflt(millis_text(d.reconnect_min))},
      {"net.reconnect_max_ms", "MS", "longest reconnect delay" + dflt(millis_text(d.reconnect_max))},
      {"net.max_handshakes", "N",
       "connections not yet authenticated at once; more are closed at once" +
           dflt(std::to_string(d.max_handshakes))},
      {"net.max_handshakes_per_address", "N",
       "of those, from one address" + dflt(std::to_string(d.max_handshakes_per_address))},
      {"jobs.keep_results", "DAYS",
       "a job's end stays at its root this long, for driftctl result and jobs" + dflt("7")},
      {"http.listen", "HOST:PORT",
       "the read-only HTTP endpoint: /metrics (Prometheus), /api/status, /api/jobs, "
       "/api/events and the dashboard at /; a loopback address (any with http.tls_cert), or "
       "off. Unless set here, a port in use only costs the endpoint (a warning), not the "
       "daemon" + dflt("127.0.0.1:7480")},
      {"http.tls_cert", "FILE",
       "PEM certificate (chain) for HTTPS on http.listen; with it every request under /metrics "
       "and /api needs a person's token: 'Authorization: Bearer' and the token file's line" +
           dflt("none: plain HTTP, this machine only")},
      {"http.tls_key", "FILE", "the certificate's PEM private key" + dflt("none")},
      {"jobs.max_running", "N",
       "at most this many jobs submitted to this node run at once; more wait in its queue "
       "(0 = no limit)" + dflt("0")},
      {"net.connections_per_second", "N",
       "new connections accepted from one address a second (bursts of twice that)" +
           dflt(std::to_string(d.connections_per_second))},
      {"log.level", "LEVEL", "trace|debug|info|warn|error" + dflt(d.log_level)},
      {"log.file", "FILE", "log file" + dflt("stderr")},
      {"emulate.speed", "X",
       "emulated relative speed (performance testbed): ctx.compute takes the wall time such a "
       "machine needs; 0 = a real machine" +
           dflt(number_text(d.emulate.speed))},
      {"emulate.unit_rate", "X",
       "emulated work units per second at speed 1" + dflt(number_text(d.emulate.unit_rate))},
      {"emulate.load", "START:RAMP:LEVEL",
       "emulated external load: from START s after start it moves linearly over RAMP s to LEVEL "
       "competing processes, and stays; may repeat, a later entry takes over" +
           dflt("none")},
      {"balance.strategy", "NAME",
       "none|homogeneous|diffusion|gde|hbm|rid" + dflt(std::string(to_string(d.balance.strategy)))},
      {"balance.capacity", "MODE",
       "static (node.capacity or a start-up benchmark) | dynamic (measured while tasks run)" +
           dflt(std::string(to_string(d.balance.capacity)))},
      {"balance.sensing", "WHEN",
       "every: capacity follows every measurement | once: frozen after the first measured step" +
           dflt(std::string(to_string(d.balance.sensing)))},
      {"balance.period_ms", "MS", "one balancing round per period" + dflt(millis_text(d.balance.period))},
      {"balance.eff_min", "X",
       "balance when U_avg / U_max falls below this, (0, 1]" + dflt(number_text(d.balance.eff_min))},
      {"balance.hysteresis", "X",
       "a node whose last round sent nothing sends again only when its own efficiency is below "
       "eff_min - X, [0, 1)" + dflt(number_text(d.balance.hysteresis))},
      {"balance.capacity_ewma", "W",
       "weight of the newest capacity sample, (0, 1]" + dflt(number_text(d.balance.capacity_ewma))},
      {"balance.locality_weight", "X",
       "preference for moving tasks whose partners live at the destination" +
           dflt(number_text(d.balance.locality_weight))},
      {"balance.max_moves", "N",
       "tasks one node sends per round" + dflt(std::to_string(d.balance.max_moves))},
      {"balance.step_floor", "BOOL",
       "measure the CPU a step costs this node beyond its tasks' computing (messages relayed "
       "and delivered) and advertise it, at the node's share of the CPU, as seconds its steps "
       "take on top of load / capacity; false: advertise none (real machines only)" +
           dflt(d.balance.step_floor ? "true" : "false")},
      {"worker.user", "NAME",
       "when driftd runs as root (or holds CAP_SETUID, CAP_SETGID and CAP_KILL, as the "
       "packaged service does), applications' answers to questions (--drift-query) run as "
       "this user, and so do workers (the processes that run applications' tasks) with "
       "worker.job_uids = off: auto = the drift system user if there is one and driftd is not "
       "it, else nobody; daemon = driftd's own user" +
           dflt(d.worker.user)},
      {"worker.job_uids", "FIRST-LAST|auto|off",
       "when driftd runs as root (or with CAP_SETUID, CAP_SETGID and CAP_KILL), each job's "
       "workers on this node run as a user id of their "
       "own from this range (and the group id of the same number), so that one job's workers "
       "can neither read, change nor signal another's; worker.user then runs only the "
       "applications' answers to questions. auto = " +
           std::string(WorkerSettings::kDefaultJobUids) +
           " where the machine maps those ids; off = every job's workers as worker.user" +
           dflt(d.worker.job_uids)},
      {"worker.nice", "N", "workers' nice value, 0..19" + dflt(std::to_string(d.worker.nice))},
      {"worker.sched_idle", "BOOL",
       "workers run under SCHED_IDLE: CPU only when no other program wants it" + dflt("true")},
      {"worker.huge_pages", "BOOL",
       "workers' malloc asks for transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1; "
       "glibc 2.35+, the kernel's THP mode madvise or always): large task states are faulted in "
       "and freed in a fraction of the kernel time, which on a node under a CPU quota is billed "
       "to the whole node, daemon included" +
           dflt("true")},
      {"worker.memory_limit", "BYTES|N%",
       "memory one worker may use, in bytes or as a share of the machine's; 0 = no limit; a "
       "memory cgroup where driftd may make one, else RLIMIT_AS" +
           dflt(d.worker.memory_limit)},
      {"worker.launcher", "COMMAND",
       "prefix of every worker's command line, e.g. 'qemu-s390x -L /usr/s390x-linux-gnu'" +
           dflt("none")},
      {"worker.apps_path", "DIR:DIR",
       "where applications named in a job (driftctl run heat2d) are found; DRIFT_APPS_PATH "
       "overrides the default" +
           dflt("<driftd's dir>/../lib/drift/apps")},
      {"worker.cache_bytes", "BYTES",
       "executables shipped with jobs are kept in node.data_dir/apps up to this size" +
           dflt(std::to_string(d.worker.cache_bytes))},
      {"worker.max_binary_bytes", "BYTES",
       "largest executable a job may ship" + dflt(std::to_string(d.worker.max_binary_bytes))},
      {"worker.stop_grace_ms", "MS",
       "a worker told to stop is killed after this long" + dflt(millis_text(d.worker.stop_grace))},
      {"worker.query_timeout_ms", "MS",
       "an application's executable must answer a question (its options, a job's checksum) "
       "within this long, and a worker say hello (a worker still using CPU gets up to 10 times "
       "this)" +
           dflt(millis_text(d.worker.query_timeout))},
      {"test.hooks", "BOOL",
       "TESTING ONLY: let clients change the frame faults below at run time (driftctl fault "
       "run); on when any of them is set" + dflt("false")},
      {"test.drop_frames", "FRACTION",
       "TESTING ONLY: node-to-node frames this daemon does not send, 0..1" + dflt("0")},
      {"test.duplicate_frames", "FRACTION",
       "TESTING ONLY: node-to-node frames this daemon sends twice, 0..1" + dflt("0")},
      {"test.delay_frames_ms", "MS",
       "TESTING ONLY: every node-to-node frame is held this long, order kept" + dflt("0")},
      {"test.plaintext", "BOOL",
       "TESTING ONLY: no TLS on this daemon's connections (members and clients must match); "
       "for measuring what TLS costs" +
           dflt("false")},
      {"test.arch", "ARCH",
       "TESTING ONLY: the architecture this daemon says it has (which executable of a job it "
       "runs; a job without one for it leaves it out)" +
           dflt("its own")},
      {"owner.policy", "NAME",
       "desktop (suspend on owner activity, vacate after max_suspend) | immediate (vacate at "
       "once) | never (only driftctl reclaim/release)" +
           dflt(std::string(to_string(d.owner.policy.kind)))},
      {"owner.start_idle", "S",
       "take work once the owner is idle this many seconds and external load <= start_load" +
           dflt(number_text(d.owner.policy.start_idle_s))},
      {"owner.start_load", "X",
       "external load per core at most this to take work" +
           dflt(number_text(d.owner.policy.start_load))},
      {"owner.suspend_idle", "S",
       "suspend when the owner's last input is less than this many seconds ago" +
           dflt(number_text(d.owner.policy.suspend_idle_s))},
      {"owner.suspend_load", "X",
       "suspend when external load per core stays at least this ..." +
           dflt(number_text(d.owner.policy.suspend_load))},
      {"owner.suspend_load_time", "S",
       "... for this many seconds" + dflt(number_text(d.owner.policy.suspend_load_s))},
      {"owner.continue_idle", "S",
       "a suspended node resumes after the owner was idle this many seconds" +
           dflt(number_text(d.owner.policy.continue_idle_s))},
      {"owner.max_suspend", "S",
       "a node suspended longer than this many seconds migrates every task away" +
           dflt(number_text(d.owner.policy.max_suspend_s))},
      {"owner.vacate_deadline", "S",
       "tasks still here this many seconds after the evacuation began are handed to recovery" +
           dflt(number_text(d.owner.vacate_deadline_s))},
      {"owner.poll_ms", "MS", "how often the owner detector looks" + dflt(millis_text(d.owner.poll))},
      {"owner.sessions", "BOOL",
       "login sessions' terminal access times count as owner input (utmp, else logind; SSH "
       "counts)" + dflt("true")},
      {"owner.input_devices", "BOOL",
       "/dev/input access times count as owner input" + dflt("true")},
      {"owner.load", "BOOL",
       "external load (load average minus drift's runnable threads) counts" + dflt("true")},
      {"owner.activity_file", "FILE",
       "its modification time counts as owner input (touch it to say 'I am here')" +
           dflt("none")},
      {"owner.socket", "PATH",
       "a local socket where people logged in here may see status and reclaim or release this "
       "PC with no secret or token (the package: /run/drift/driftd.sock)" +
           dflt("none")},
      {"owner.group", "NAME", "members of this group may use owner.socket" + dflt("drift-owners")},
      {"owner.users", "NAME,...", "these users may use owner.socket too" + dflt("none")},
  };
}

}  // namespace

bool repeats(const std::string& key) { return key == "cluster.seeds" || key == "emulate.load"; }

po::options_description key_options() {
  po::options_description keys("Keys (as [section] name = value in FILE, or --section.name=value)",
                               100, 50);
  for (const auto& spec : key_specs()) {
    const po::value_semantic* value = nullptr;
    if (repeats(spec.key)) {
      // Not composing: repeats within one source add up, but the command line replaces the file.
      value = po::value<std::vector<std::string>>()->value_name(spec.arg);
    } else {
      value = po::value<std::string>()->value_name(spec.arg);
    }
    keys.add_options()(spec.key, value, spec.help.c_str());
  }
  return keys;
}

po::options_description command_line_options() {
  po::options_description general("Options", 100, 50);
  general.add_options()("config,c", po::value<std::string>()->value_name("FILE"),
                        "configuration file (INI)")("help,h", "print this help and exit")(
      "version", "print the version and exit");
  general.add(key_options());
  return general;
}

std::string help_text() {
  std::ostringstream out;
  out << kUsage << "\n\n" << command_line_options() << "\n";
  return out.str();
}

bool wants_help(int argc, const char* const argv[]) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  }
  return false;
}

std::string usage() { return kUsage; }

std::string millis_text(std::chrono::milliseconds d) { return std::to_string(d.count()); }

std::string number_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

}  // namespace drift
