// Getting the executables of jobs to the nodes that run them (docs/architecture.md,
// "Executables"). driftctl uploads each one it ships to the daemon it submits to (AppOffer, then
// AppPiece; AppStored says it is kept); a node that needs one it has not cached asks its
// sources in turn — the job's root first, then the other members — with AppFetch, and the first
// that has it sends it in pieces (behind small messages on the connection). Whoever needs an
// executable waits with need(); every waiter of the same hash shares one fetch. Pieces from an
// uploader or a source other than the one asked are refused; a source silent for too long is
// given up for the next. Network thread only.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <fstream>
#include <functional>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "node/net/messenger.h"
#include "node/net/peer_connection.h"
#include "node/workers/binary_cache.h"
#include "protocol/app_messages.h"

namespace drift {

class BinaryService {
 public:
  using Clock = std::chrono::steady_clock;
  using Ready = std::function<void(Result<std::string> path)>;

  BinaryService(asio::io_context& io, Messenger& messenger, BinaryCache& cache,
                std::uint32_t piece_bytes);

  // From driftctl.
  void on_offer(const ConnectionPtr& client, const AppOffer& offer);
  void on_client_piece(const ConnectionPtr& client, const AppPiece& piece);
  void on_client_closed(const ConnectionPtr& client);
  // From other nodes.
  void on_fetch(std::uint32_t from, const AppFetch& fetch);
  void on_node_piece(std::uint32_t from, const AppPiece& piece);
  void on_node_stored(std::uint32_t from, const AppStored& stored);
  void on_node_dead(std::uint32_t node);

  // The executable with this hash: here already, or fetched from `sources` in turn.
  void need(const std::string& sha256, std::vector<std::uint32_t> sources, Ready ready);
  // Every second: fetches whose source went quiet move on; the cache is trimmed.
  void sweep(Clock::time_point now, const std::set<std::string>& in_use);

 private:
  struct Upload {
    ConnectionPtr client;
    std::unique_ptr<BinaryCache::Incoming> incoming;
    Clock::time_point heard;  // its offer or its last piece
  };
  struct Fetch {
    std::vector<std::uint32_t> sources;
    std::size_t next = 0;  // the source asked now is sources[next - 1]
    std::vector<Ready> waiters;
    std::unique_ptr<BinaryCache::Incoming> incoming;
    Clock::time_point heard;
    std::vector<std::string> refusals;  // "node 2: not here"
  };

  void ask_next(const std::string& sha256, Fetch& fetch);
  // Sends the piece at `offset` of the file to `to`, then the next one in a handler of its own,
  // so that heartbeats are answered between the pieces of a large executable.
  void serve(std::uint32_t to, std::string sha256, std::shared_ptr<std::ifstream> file,
             std::uint64_t size, std::uint64_t offset);
  void start_serving(std::uint32_t to, const std::string& sha256);
  void served();
  void end_fetch(const std::string& sha256, Result<std::string> path);

  static constexpr std::chrono::seconds kSourcePatience{10};
  // An upload whose client sends nothing for this long is abandoned, and its slot free again:
  // offers never followed by a piece held every slot for as long as their connections stayed.
  static constexpr std::chrono::seconds kUploadPatience{30};
  // Uploads at once, per connection, per user (the principal, however many connections it
  // opens: everyone holding the cluster secret is one) and in all; executables sent to other
  // nodes at once (more wait their turn): bounds on what clients and fetching nodes make this
  // node hold, and no user takes every slot.
  static constexpr std::size_t kUploadsPerClient = 2, kUploadsPerUser = 8, kUploads = 16,
                               kServing = 4, kQueued = 256;

  asio::io_context& io_;
  Messenger& messenger_;
  BinaryCache& cache_;
  std::uint32_t piece_bytes_;
  std::map<std::string, Upload> uploads_;  // by hash
  std::map<std::string, Fetch> fetches_;   // by hash
  std::size_t serving_ = 0;
  std::deque<std::pair<std::uint32_t, std::string>> to_serve_;  // (node, hash), waiting
};

}  // namespace drift
