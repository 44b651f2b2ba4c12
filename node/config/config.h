// driftd's configuration: an INI file plus --key=value overrides, parsed with
// Boost.Program_options. Every value is validated here; errors name the key, the value and where it
// came from.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "node/config/balance_settings.h"
#include "node/machine/emulation.h"
#include "node/net/endpoint.h"
#include "node/jobs/job_checkpoints.h"
#include "node/config/owner_settings.h"
#include "node/config/worker_settings.h"

namespace drift {

struct NodeConfig {
  std::uint32_t node_id = 0;
  std::string name;  // default: the host name
  std::string address = "127.0.0.1";
  std::uint16_t port = 7400;
  std::string data_dir = "./drift-data";
  std::uint32_t workers = 0;  // 0 = number of cores
  double capacity = 0;        // 0 = measure at start
  bool accept_tasks = true;   // take migrating tasks from other nodes
  std::uint32_t inline_handler_us = 50;  // handlers this short may run on the network thread
  std::uint64_t memory_limit = 0;  // bytes of incoming task state accepted; 0 = half of free
  std::string cpu = "auto";        // node.cpu: auto, any or a CPU's number (machine/cpu_pin.h)
  std::uint32_t chunk_bytes = 1u << 20;  // task state travels in chunks of this size
  std::chrono::milliseconds pointer_ttl{30000};  // unused forwarding pointers are dropped
  std::string cluster_name = "drift";
  std::string secret_file;
  std::vector<std::uint8_t> secret;  // the secret file's bytes, trailing whitespace trimmed
  std::vector<Endpoint> seeds;
  std::set<std::string> revoked_tokens;  // names of people's tokens no longer accepted
  // Members' certificates (optional; all three or none): the cluster CA, ours, our key.
  std::string tls_ca, tls_cert, tls_key;
  std::chrono::milliseconds heartbeat_interval{100};
  std::uint32_t group_size = 8;
  double phi_threshold = 8.0;
  std::chrono::milliseconds min_std_dev{50}, acceptable_pause{150}, suspect_timeout{400};
  std::uint32_t probe_helpers = 3;  // members asked to probe a suspect; 0 = no indirect probes
  // Lifeguard: with no other member confirming a suspicion, it lasts up to this long (0 = three
  // times suspect_timeout); the heartbeat thread stops when the network thread hangs this long.
  std::chrono::milliseconds suspect_timeout_max{0}, hang_timeout{30000};
  // A member entering the local group is not suspected before this long without its first
  // heartbeat (a node starting on a slow PC takes that long to connect).
  std::chrono::milliseconds first_heartbeat{3000};
  std::uint32_t max_frame_bytes = 8u << 20;
  std::chrono::milliseconds reconnect_min{100}, reconnect_max{5000};
  // Connections not yet authenticated: at most so many at once, so many from one address, and
  // new ones from one address at most so many a second (bursts of twice that).
  std::uint32_t max_handshakes = 128, max_handshakes_per_address = 16;
  std::uint32_t connections_per_second = 100;
  // How long a job's end stays at its root for `driftctl result` / `jobs` (jobs.keep_results).
  std::chrono::seconds keep_results{7 * 24 * 3600};
  // At most this many jobs rooted at this node run at once; more wait in its queue (0: no limit).
  std::uint32_t max_running = 0;
  // The read-only HTTP endpoint (/metrics, /api, the dashboard); nullopt: off. Loopback only,
  // unless it has a certificate and key (PEM files): then HTTPS on any address, and every
  // request under /metrics and /api must carry a person's token (Authorization: Bearer).
  std::optional<Endpoint> http_listen = Endpoint{"127.0.0.1", 7480};
  std::string http_tls_cert, http_tls_key;
  std::string log_level = "info";
  std::string log_file;  // empty = stderr

  // [test]: fault injection for the failure-injection harness (driftctl fault run), off by
  // default. Frame faults apply to the node-to-node frames this daemon sends; with hooks on, a
  // client may change them at run time (FrameFaultsRequest). Any nonzero fault turns hooks on.
  struct TestHooks {
    bool hooks = false;
    double drop_frames = 0;       // fraction, 0..1
    double duplicate_frames = 0;  // fraction, 0..1
    double delay_frames_ms = 0;
    std::string arch;  // the architecture this daemon says it has; empty: its own
    bool plaintext = false;  // no TLS: only to measure what TLS costs, beside it
  } test;
  // The architecture this node runs executables of: its own, or test.arch.
  std::string arch() const;
  EmulationSettings emulate;  // [emulate]: speed 0 = a real machine
  BalanceSettings balance;    // [balance]
  CheckpointPolicy checkpoint;  // [checkpoint]: how often jobs rooted here save their tasks
  OwnerSettings owner;        // [owner]: owner reclaim (docs/architecture.md §9)
  WorkerSettings worker;      // [worker]: worker processes and applications
  std::string config_file;
  // Where each key's value came from: "conf/node1.conf:7" or "command line"; absent = default.
  std::map<std::string, std::string> origin;

  std::string where(const std::string& key) const;  // origin, or "default"
};

struct ConfigHelp {  // --help was asked for: print text, exit 0
  std::string text;
};
struct ConfigError {  // one line starting with "driftd: "; print it, exit 2
  std::string message;
};

// "0.1.0": the version driftd was built as.
const char* driftd_version();

// `driftd --config FILE [--key=value ...]`. Keys are the INI file's "section.name"; the command
// line wins over the file. Relative paths in the file are relative to the file's directory.
std::variant<NodeConfig, ConfigHelp, ConfigError> parse_driftd_args(int argc,
                                                                    const char* const argv[]);

}  // namespace drift
