// Real network partitions for `driftctl fault run`: every daemon in its own network namespace on
// its own address 10.77.X.K/24, joined by a veth pair to a bridge in the root namespace, which
// also carries the harness's address 10.77.X.254 (so the harness reaches every daemon, whatever
// is cut). A partition is a set of nftables drop rules (bridge family, both directions) between
// two sets of addresses; heal() deletes them. The destructor removes namespaces, links and the
// table on every exit path; create() also removes what crashed earlier runs left behind.
// Needs root and the `ip` and `nft` tools; create() says so clearly when they are missing.
// (`tc netem` does not work here; frame loss and delay use the daemon's test hooks instead.)
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include <drift/status.h>

namespace drift::ctl {

class FaultNetwork {
 public:
  static Result<std::unique_ptr<FaultNetwork>> create(int nodes);
  ~FaultNetwork();
  FaultNetwork(const FaultNetwork&) = delete;
  FaultNetwork& operator=(const FaultNetwork&) = delete;

  std::string host(int k) const;                  // node k's address, "10.77.X.K"
  std::vector<std::string> launcher(int k) const;  // {"nsenter", "--net=/run/netns/NS", "--"}
  // Drops every packet between an address of `a` and one of `b`, both ways, until heal().
  Status cut(const std::vector<int>& a, const std::vector<int>& b);
  Status heal();

 private:
  FaultNetwork(int nodes, int subnet);
  Status build();
  void remove_all();
  std::string netns(int k) const;

  int nodes_;
  int subnet_;  // X of 10.77.X.0/24
  pid_t owner_;
  std::string bridge_;
  std::string table_;
  std::vector<int> made_;  // namespaces created, for cleanup
  bool bridge_made_ = false;
  bool table_made_ = false;
};

}  // namespace drift::ctl
