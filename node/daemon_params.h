// How the daemon's parts are set up from its configuration: the parameters of each service, this
// node's identity, and the few machine facts they need (docs/architecture.md §3.1, §12). Pure
// functions of the config, apart from the incarnation (the clock) and the machine's cores and
// benchmark; used by the Daemon constructor only.
#pragma once

#include <cstdint>
#include <vector>

#include "node/balance/balancer_service.h"
#include "node/balance/load_meter.h"
#include "node/config/config.h"
#include "node/machine/cpu_share.h"
#include "node/machine/emulation.h"
#include "node/membership/member_table.h"
#include "node/membership/membership_service.h"
#include "node/net/transport.h"
#include "node/tasks/task_host.h"
#include "node/workers/worker_launch.h"

namespace drift::daemon_setup {

std::uint64_t new_incarnation();
std::uint32_t worker_count(std::uint32_t configured);
Hello self_hello(const NodeConfig& c, std::uint64_t incarnation);
MemberInfo self_member(const NodeConfig& c, std::uint64_t incarnation);
// The daemon's TLS (node/net/tls_context.h): null with test.plaintext; throws if OpenSSL fails.
std::shared_ptr<TlsContext> member_tls(const NodeConfig& c);
// `bulk_lane`: the network thread's (null: bulk steps are ordinary handlers).
Transport::Params transport_params(const NodeConfig& c, std::shared_ptr<TlsContext> tls,
                                   IdleLane* bulk_lane = nullptr);
std::uint32_t core_count();
// `share`: where the node's CPU share is measured under a quota (cpu_share.h), for its capacity;
// none: the load average only (the owner's programs, the start-up benchmark).
double external_load_now(const Emulator& emulator, double now_s,
                         const std::vector<int>& workers = {}, CpuShareSampler* share = nullptr);
LoadMeter::Params meter_params(const NodeConfig& c, const Emulator& emulator,
                               double static_estimate);
TaskHost::Params task_host_params(const NodeConfig& c, const Emulator& emulator,
                                  const Containment& containment);
double parallelism(const NodeConfig& c, const Emulator& emulator);
double static_capacity(const NodeConfig& c, const Emulator& emulator);
PhiAccrualDetector::Params detector_params(const NodeConfig& c);
MembershipService::Params membership_params(const NodeConfig& c);
MemberTable::SuspectTimeout suspect_timeout(const NodeConfig& c);
BalancerService::Params balancer_params(const NodeConfig& c);

}  // namespace drift::daemon_setup
