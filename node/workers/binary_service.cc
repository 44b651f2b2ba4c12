#include "node/workers/binary_service.h"

#include <spdlog/spdlog.h>

#include <filesystem>

#include "node/workers/machine_arch.h"

namespace drift {

BinaryService::BinaryService(asio::io_context& io, Messenger& messenger, BinaryCache& cache,
                             std::uint32_t piece_bytes)
    : io_(io), messenger_(messenger), cache_(cache), piece_bytes_(piece_bytes) {}

void BinaryService::on_offer(const ConnectionPtr& client, const AppOffer& offer) {
  auto refuse = [&](const std::string& why) {
    spdlog::info("client {}: refused an executable {}: {}", client->describe(), offer.sha256, why);
    client->send(AppOfferReply{offer.sha256, false, why});
  };
  if (!valid_sha256(offer.sha256)) return refuse("'" + offer.sha256 + "' is not a SHA-256");
  if (!known_arch(offer.arch)) return refuse("'" + offer.arch + "' is no architecture drift knows");
  if (cache_.find(offer.sha256)) return client->send(AppOfferReply{offer.sha256, true, ""});
  if (uploads_.count(offer.sha256) || fetches_.count(offer.sha256)) {
    return refuse("it is arriving from elsewhere already; offer it again in a moment");
  }
  const std::string& user = client->principal().name;
  std::size_t from_user = 0, from_client = 0;
  for (const auto& [sha, up] : uploads_) {
    from_user += up.client->principal().name == user ? 1 : 0;
    from_client += up.client == client ? 1 : 0;
  }
  if (from_client >= kUploadsPerClient) {
    return refuse("too many executables arriving at once; offer it again in a moment");
  }
  if (from_user >= kUploadsPerUser) {
    return refuse(std::to_string(from_user) + " executables of " + user +
                  "'s are arriving already (at most " + std::to_string(kUploadsPerUser) +
                  " at once); offer it again when one is in");
  }
  if (uploads_.size() >= kUploads) {
    return refuse("too many executables arriving at once; offer it again in a moment");
  }
  auto incoming = cache_.begin(offer.sha256, offer.size);
  if (!incoming) return refuse(incoming.error());
  uploads_[offer.sha256] = Upload{client, std::move(*incoming), Clock::now()};
  client->send(AppOfferReply{offer.sha256, false, ""});
}

void BinaryService::on_client_piece(const ConnectionPtr& client, const AppPiece& piece) {
  auto it = uploads_.find(piece.sha256);
  if (it == uploads_.end() || it->second.client != client) {
    return client->close("refused: a piece of an executable it did not offer");
  }
  Upload& up = it->second;
  up.heard = Clock::now();
  // In order: hashed as they come, so keeping it reads nothing again.
  Status st = piece.total != up.incoming->total()
                  ? Status::error("a piece of an executable of another size")
              : piece.offset != up.incoming->received()
                  ? Status::error("a piece at offset " + std::to_string(piece.offset) + ", not " +
                                  std::to_string(up.incoming->received()) + ": out of order")
                  : up.incoming->add(piece.offset, piece.bytes);
  if (!st) {
    client->send(AppStored{piece.sha256, false, st.message()});
    cache_.abandon(std::move(up.incoming));
    uploads_.erase(it);
    return;
  }
  if (!up.incoming->complete()) return;
  auto incoming = std::move(up.incoming);
  uploads_.erase(it);
  auto path = cache_.finish(std::move(incoming));
  if (path) spdlog::info("client {}: executable {} kept as {}", client->describe(), piece.sha256, *path);
  client->send(AppStored{piece.sha256, path.is_ok(), path ? "" : path.error()});
}

void BinaryService::on_client_closed(const ConnectionPtr& client) {
  for (auto it = uploads_.begin(); it != uploads_.end();) {
    if (it->second.client == client) {
      cache_.abandon(std::move(it->second.incoming));
      it = uploads_.erase(it);
    } else {
      ++it;
    }
  }
}

// At most kServing at once, the others in turn; each piece behind the connection's small
// messages, read and sent in a handler of its own.
void BinaryService::on_fetch(std::uint32_t from, const AppFetch& fetch) {
  if (!cache_.find(fetch.sha256)) {
    return messenger_.send_to_node(from, AppStored{fetch.sha256, false, "not here"});
  }
  if (serving_ < kServing) return start_serving(from, fetch.sha256);
  if (to_serve_.size() >= kQueued) {
    return messenger_.send_to_node(from, AppStored{fetch.sha256, false, "busy serving others"});
  }
  to_serve_.emplace_back(from, fetch.sha256);
}

void BinaryService::start_serving(std::uint32_t to, const std::string& sha256) {
  auto path = cache_.find(sha256);
  std::error_code ec;
  const std::uint64_t size = path ? std::filesystem::file_size(*path, ec) : 0;
  auto file = path ? std::make_shared<std::ifstream>(*path, std::ios::binary) : nullptr;
  if (!file || !*file || ec || size == 0) {
    messenger_.send_to_node(to, AppStored{sha256, false, "cannot read it here"});
    return;
  }
  ++serving_;
  serve(to, sha256, std::move(file), size, 0);
}

void BinaryService::served() {
  --serving_;
  while (serving_ < kServing && !to_serve_.empty()) {
    auto [to, sha] = std::move(to_serve_.front());
    to_serve_.pop_front();
    start_serving(to, sha);
  }
}

void BinaryService::serve(std::uint32_t to, std::string sha256,
                          std::shared_ptr<std::ifstream> file, std::uint64_t size,
                          std::uint64_t offset) {
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(piece_bytes_, size - offset));
  AppPiece piece{sha256, size, offset, std::vector<std::uint8_t>(n)};
  file->read(reinterpret_cast<char*>(piece.bytes.data()), static_cast<std::streamsize>(n));
  if (static_cast<std::size_t>(file->gcount()) != n) {
    messenger_.send_to_node(to, AppStored{sha256, false, "cannot read it here"});
    return served();
  }
  messenger_.send_bulk_to_node(to, std::move(piece));
  if (offset + n >= size) return served();
  asio::post(io_, [this, to, sha256 = std::move(sha256), file = std::move(file), size,
                   next = offset + n]() mutable {
    serve(to, std::move(sha256), std::move(file), size, next);
  });
}

void BinaryService::need(const std::string& sha256, std::vector<std::uint32_t> sources,
                         Ready ready) {
  if (auto path = cache_.find(sha256)) return ready(*path);
  if (!valid_sha256(sha256)) return ready(Status::error("'" + sha256 + "' is not a SHA-256"));
  auto [it, fresh] = fetches_.try_emplace(sha256);
  it->second.waiters.push_back(std::move(ready));
  if (!fresh) return;
  std::erase(sources, messenger_.self_id());
  it->second.sources = std::move(sources);
  ask_next(sha256, it->second);
}

void BinaryService::ask_next(const std::string& sha256, Fetch& fetch) {
  if (fetch.incoming) cache_.abandon(std::move(fetch.incoming));
  if (fetch.next >= fetch.sources.size()) {
    std::string asked;
    for (const auto& r : fetch.refusals) asked += (asked.empty() ? "" : "; ") + r;
    return end_fetch(sha256, Status::error("no node could send executable " + sha256 +
                                           (asked.empty() ? std::string(" (no node to ask)")
                                                          : " (" + asked + ")")));
  }
  const std::uint32_t source = fetch.sources[fetch.next++];
  fetch.heard = Clock::now();
  messenger_.send_to_node(source, AppFetch{sha256});
}

void BinaryService::on_node_piece(std::uint32_t from, const AppPiece& piece) {
  auto it = fetches_.find(piece.sha256);
  if (it == fetches_.end()) return;  // a fetch given up meanwhile
  Fetch& f = it->second;
  if (f.next == 0 || f.sources[f.next - 1] != from) return;  // not the source asked now
  f.heard = Clock::now();
  if (!f.incoming) {
    auto incoming = cache_.begin(piece.sha256, piece.total);
    if (!incoming) {
      f.refusals.push_back("node " + std::to_string(from) + ": " + incoming.error());
      return ask_next(piece.sha256, f);
    }
    f.incoming = std::move(*incoming);
  }
  Status st = piece.total != f.incoming->total() ? Status::error("pieces of two sizes")
              : piece.offset != f.incoming->received()
                  ? Status::error("a piece out of order (offset " + std::to_string(piece.offset) + ")")
                  : f.incoming->add(piece.offset, piece.bytes);
  if (!st) {
    f.refusals.push_back("node " + std::to_string(from) + " sent " + st.message());
    return ask_next(piece.sha256, f);
  }
  if (!f.incoming->complete()) return;
  auto path = cache_.finish(std::move(f.incoming));
  if (!path) {
    f.refusals.push_back("node " + std::to_string(from) + ": " + path.error());
    return ask_next(piece.sha256, f);
  }
  spdlog::info("executable {} fetched from node {}", piece.sha256, from);
  end_fetch(piece.sha256, *path);
}

void BinaryService::on_node_stored(std::uint32_t from, const AppStored& stored) {
  auto it = fetches_.find(stored.sha256);
  if (it == fetches_.end() || stored.ok) return;
  Fetch& f = it->second;
  if (f.next == 0 || f.sources[f.next - 1] != from) return;
  f.refusals.push_back("node " + std::to_string(from) + ": " + stored.error);
  ask_next(stored.sha256, f);
}

void BinaryService::on_node_dead(std::uint32_t node) {
  std::vector<std::string> stuck;
  for (const auto& [sha, f] : fetches_) {
    if (f.next > 0 && f.sources[f.next - 1] == node) stuck.push_back(sha);
  }
  for (const std::string& sha : stuck) {
    Fetch& f = fetches_.at(sha);
    f.refusals.push_back("node " + std::to_string(node) + " died");
    ask_next(sha, f);
  }
}

void BinaryService::end_fetch(const std::string& sha256, Result<std::string> path) {
  auto it = fetches_.find(sha256);
  if (it == fetches_.end()) return;
  std::vector<Ready> waiters = std::move(it->second.waiters);
  if (it->second.incoming) cache_.abandon(std::move(it->second.incoming));
  fetches_.erase(it);
  for (Ready& ready : waiters) ready(path);
}

void BinaryService::sweep(Clock::time_point now, const std::set<std::string>& in_use) {
  std::vector<std::string> quiet;
  for (const auto& [sha, f] : fetches_) {
    if (now - f.heard > kSourcePatience) quiet.push_back(sha);
  }
  for (const std::string& sha : quiet) {
    Fetch& f = fetches_.at(sha);
    f.refusals.push_back("node " + std::to_string(f.sources[f.next - 1]) + " sent nothing for " +
                         std::to_string(kSourcePatience.count()) + " s");
    ask_next(sha, f);
  }
  for (auto it = uploads_.begin(); it != uploads_.end();) {
    if (now - it->second.heard <= kUploadPatience) {
      ++it;
      continue;
    }
    const std::string why = "no piece of it for " + std::to_string(kUploadPatience.count()) +
                            " s: abandoned";
    spdlog::info("client {}: executable {}: {}", it->second.client->describe(), it->first, why);
    it->second.client->send(AppStored{it->first, false, why});
    cache_.abandon(std::move(it->second.incoming));
    it = uploads_.erase(it);
  }
  std::set<std::string> keep = in_use;
  for (const auto& [sha, up] : uploads_) keep.insert(sha);
  cache_.evict(keep);
}

}  // namespace drift
