// A hostile but authenticated peer for the tests (docs/architecture.md §4): it holds the cluster
// secret, completes a real TLS and drift handshake with one daemon as a node of its own (id 99),
// and then sends frames of every message type — each one of the sample messages
// (tests/protocol/sample_messages.h), unchanged or with boundary values (0, 2^32±k, 2^40, 2^63,
// all ones) written over it, bytes flipped, cut short or lengthened — one at a time: after each,
// the daemon's count of refusals (its status, `refused`) says whether it closed the connection
// over that frame, and the fuzzer then connects again. Deterministic (a fixed seed).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ctl/client_connection.h"
#include "ctl/tcp_stream.h"
#include "node/net/endpoint.h"
#include <drift/status.h>

namespace drift::test {

class PeerFuzzer {
 public:
  PeerFuzzer(Endpoint to, std::vector<std::uint8_t> secret, std::string cluster)
      : to_(std::move(to)), secret_(std::move(secret)), cluster_(std::move(cluster)) {}

  // Sends `frames` frames, each once the one before was taken or refused (`refusals`: the
  // target's count of them); the number of connections it took.
  Result<int> run(int frames, const std::function<Result<std::uint64_t>()>& refusals);

 private:
  std::vector<std::uint8_t> next_frame();

  Endpoint to_;
  std::vector<std::uint8_t> secret_;
  std::string cluster_;
  std::mt19937_64 rng_{0xf022'd71f'0000'0017ULL};
};

// A connection to the daemon at `to` that completed a real TLS and drift handshake as member
// `node_id` ("fuzzer", listening nowhere useful), holding the cluster secret.
Result<std::unique_ptr<ctl::TcpStream>> open_member_connection(const Endpoint& to,
                                                               const std::vector<std::uint8_t>& secret,
                                                               const std::string& cluster,
                                                               std::uint32_t node_id);

// Node `node`'s count of refusals, from its own status over `watcher`.
Result<std::uint64_t> refusals_of(ctl::ClientConnection& watcher, std::uint32_t node);

}  // namespace drift::test
