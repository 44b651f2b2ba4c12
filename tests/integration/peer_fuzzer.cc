#include "tests/integration/peer_fuzzer.h"

#include <algorithm>
#include <thread>

#include "ctl/frame_io.h"
#include "ctl/status_query.h"
#include "ctl/tcp_stream.h"
#include "node/net/tls_context.h"
#include "protocol/codec.h"
#include "protocol/frame.h"
#include "protocol/handshake.h"
#include "tests/protocol/sample_messages.h"

namespace drift::test {

namespace {

using namespace std::chrono_literals;
using Bytes = std::vector<std::uint8_t>;

void put(Bytes& body, std::size_t at, std::uint64_t value, std::size_t width) {
  for (std::size_t i = 0; i < width && at + i < body.size(); ++i) {
    body[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
  }
}

}  // namespace

Result<int> PeerFuzzer::run(int frames, const std::function<Result<std::uint64_t>()>& refusals) {
  int connections = 0;
  std::unique_ptr<ctl::TcpStream> stream;
  auto before = refusals();
  if (!before) return before.status();
  for (int i = 0; i < frames; ++i) {
    if (!stream) {
      // A daemon admits so many new connections a second from one address (net.
      // connections_per_second); past that, back off and try again, as any client would.
      auto opened = open_member_connection(to_, secret_, cluster_, 99);
      for (int tries = 1; !opened && tries < 50; ++tries) {
        std::this_thread::sleep_for(100ms);
        opened = open_member_connection(to_, secret_, cluster_, 99);
      }
      if (!opened) return Status::error("connection " + std::to_string(connections + 1) + ": " + opened.error());
      stream = std::move(opened).value();
      ++connections;
    }
    const Bytes frame = next_frame();
    if (stream->write_all(frame, ctl::Clock::now() + 2s)) {
      stream.reset();
      continue;
    }
    auto now = refusals();
    if (!now) return Status::error("after frame " + std::to_string(i) + ": " + now.error());
    if (*now != *before) stream.reset();  // refused and closed: connect again
    before = now;
  }
  return connections;
}

Result<std::unique_ptr<ctl::TcpStream>> open_member_connection(const Endpoint& to,
                                                               const std::vector<std::uint8_t>& secret,
                                                               const std::string& cluster,
                                                               std::uint32_t node_id) {
  auto tls = TlsContext::client(kMemberIdentity, tls_psk(secret, kMemberIdentity));
  if (!tls) return tls.status();
  auto stream = ctl::TcpStream::connect(to, ctl::Clock::now() + 5s, *tls);
  if (!stream) return stream.status();
  const auto deadline = ctl::Clock::now() + 5s;
  Hello ours = ctl::client_hello(cluster);
  ours.role = PeerRole::kNode;
  ours.node_id = node_id;
  ours.incarnation = 1;
  ours.name = "fuzzer";
  ours.listen_address = "127.0.0.1:9";
  if (Status st = ctl::write_message(**stream, ours, deadline); !st) return st;
  auto theirs = ctl::read_message(**stream, kHandshakeMaxBody, deadline);
  if (!theirs) return theirs.status();
  auto auth = ctl::read_message(**stream, kHandshakeMaxBody, deadline);
  if (!auth) return auth.status();
  const auto* hello = std::get_if<Hello>(&*theirs);
  if (!hello) return Status::error("no Hello from the daemon");
  const HelloAuth proof{handshake_mac(tls_psk(secret, kMemberIdentity), ours, *hello)};
  if (Status st = ctl::write_message(**stream, proof, deadline); !st) return st;
  return stream;
}


Bytes PeerFuzzer::next_frame() {
  const auto& samples = sample_messages();
  const WireMessage& msg = samples[rng_() % samples.size()].message;
  Bytes body = encode_body(msg);
  static constexpr std::uint64_t kBoundaries[] = {
      0, 1, 0xffffffffull, 0x100000000ull, 0xfffffffeull, 0x100000005ull, 1ull << 40,
      1ull << 63, ~0ull, 0x7fffffffull};
  const int mutations = static_cast<int>(rng_() % 4);  // 0: the sample as it is
  for (int m = 0; m < mutations && !body.empty(); ++m) {
    switch (rng_() % 4) {
      case 0: put(body, rng_() % body.size(), kBoundaries[rng_() % std::size(kBoundaries)], 8); break;
      case 1: put(body, rng_() % body.size(), kBoundaries[rng_() % std::size(kBoundaries)], 4); break;
      case 2: body[rng_() % body.size()] ^= static_cast<std::uint8_t>(1u << (rng_() % 8)); break;
      default:
        if (rng_() % 2) {
          body.resize(rng_() % body.size());
        } else {
          body.resize(body.size() + rng_() % 64, static_cast<std::uint8_t>(rng_()));
        }
    }
  }
  FrameHeader header;
  header.type = static_cast<std::uint16_t>(type_of(msg));
  header.length = static_cast<std::uint32_t>(body.size());
  const auto head = encode_header(header);
  Bytes frame(head.size() + body.size());
  std::copy(head.begin(), head.end(), frame.begin());
  std::copy(body.begin(), body.end(), frame.begin() + static_cast<std::ptrdiff_t>(head.size()));
  return frame;
}


Result<std::uint64_t> refusals_of(ctl::ClientConnection& watcher, std::uint32_t node) {
  auto status = ctl::query_status(watcher, 10s);
  if (!status) return status.status();
  for (const auto& n : status->nodes) {
    if (n.member.node_id == node) return n.counters.refused;
  }
  return Status::error("node " + std::to_string(node) + " does not list itself");
}

}  // namespace drift::test
