// The authenticated handshake: proofs bind the secret, both hellos and the direction; hellos from
// another cluster or version, or a node without an id, are refused with the offending value.
#include "protocol/handshake.h"

#include <gtest/gtest.h>

#include "protocol/frame.h"
#include "tests/protocol/golden_vectors.h"

namespace drift {
namespace {

const std::vector<std::uint8_t> kSecret{'s', 'e', 'c', 'r', 'e', 't', 0x00, 0xff};

Hello node_hello(std::uint32_t id, std::uint8_t nonce_byte) {
  Hello h;
  h.cluster = "lab";
  h.protocol_version = kProtocolVersion;
  h.role = PeerRole::kNode;
  h.node_id = id;
  h.incarnation = 100 + id;
  h.name = "pc-" + std::to_string(id);
  h.listen_address = "10.0.0." + std::to_string(id) + ":7400";
  h.nonce.fill(nonce_byte);
  return h;
}

TEST(Handshake, NoncesAreFresh) {
  EXPECT_NE(random_nonce(), random_nonce());
  EXPECT_NE(random_nonce(), Nonce{});
}

TEST(Handshake, HonestProofVerifies) {
  const Hello a = node_hello(1, 0xaa), b = node_hello(2, 0xbb);
  const HelloAuth proof{handshake_mac(kSecret, a, b)};  // a proves to b
  EXPECT_TRUE(verify_auth(kSecret, a, b, proof));
}

TEST(Handshake, WrongSecretIsRefused) {
  const Hello a = node_hello(1, 0xaa), b = node_hello(2, 0xbb);
  const HelloAuth proof{handshake_mac({'g', 'u', 'e', 's', 's'}, a, b)};
  EXPECT_EQ(verify_auth(kSecret, a, b, proof).message(),
            "peer's handshake proof does not match (wrong cluster secret?)");
}

TEST(Handshake, ProofIsBoundToDirectionAndBothHellos) {
  const Hello a = node_hello(1, 0xaa), b = node_hello(2, 0xbb);
  const HelloAuth a_to_b{handshake_mac(kSecret, a, b)};
  // Reflected back to a as if b had produced it.
  EXPECT_FALSE(verify_auth(kSecret, b, a, a_to_b));
  // Replayed on a connection where b chose another nonce.
  EXPECT_FALSE(verify_auth(kSecret, a, node_hello(2, 0xbc), a_to_b));
  // Any changed field of the prover's hello.
  Hello other_a = a;
  other_a.incarnation += 1;
  EXPECT_FALSE(verify_auth(kSecret, other_a, b, a_to_b));
}

TEST(Handshake, EmptySecretStillGivesAProof) {
  const Hello a = node_hello(1, 0xaa), b = node_hello(2, 0xbb);
  EXPECT_TRUE(verify_auth({}, a, b, HelloAuth{handshake_mac({}, a, b)}));
  EXPECT_FALSE(verify_auth(kSecret, a, b, HelloAuth{handshake_mac({}, a, b)}));
}

// Pins the transcript format: a change breaks handshakes with older builds.
TEST(Handshake, ProofIsStableAcrossBuilds) {
  const Mac mac = handshake_mac(kSecret, node_hello(1, 0xaa), node_hello(2, 0xbb));
  EXPECT_EQ(test::to_hex(mac), "b562b8abb6f7ad346fe8e84ef2478354f9e089055f756a539da6d3bcdb01bc1e");
}

TEST(Handshake, AcceptsOurClusterAndVersion) { EXPECT_TRUE(check_hello(node_hello(3, 1), "lab")); }

TEST(Handshake, RefusesAnotherCluster) {
  EXPECT_EQ(check_hello(node_hello(3, 1), "physics").message(),
            "peer cluster 'lab' differs from ours 'physics'");
  Hello odd = node_hello(3, 1);
  odd.cluster = std::string("l\nab'\x01", 6);
  EXPECT_EQ(check_hello(odd, "lab").message(),
            "peer cluster 'l\\x0aab\\x27\\x01' differs from ours 'lab'");
}

TEST(Handshake, RefusesAnotherProtocolVersion) {
  Hello h = node_hello(3, 1);
  h.protocol_version = 2;
  EXPECT_EQ(check_hello(h, "lab").message(), "peer protocol version 2 differs from ours (1)");
}

TEST(Handshake, RefusesANodeWithoutAnId) {
  EXPECT_EQ(check_hello(node_hello(0, 1), "lab").message(),
            "peer node 'pc-0' has node id 0; nodes need a nonzero id");
}

TEST(Handshake, ClientMayOmitTheClusterButNotGiveAnother) {
  Hello client;
  client.protocol_version = kProtocolVersion;
  client.role = PeerRole::kClient;
  EXPECT_TRUE(check_hello(client, "lab"));
  client.cluster = "lab";
  EXPECT_TRUE(check_hello(client, "lab"));
  client.cluster = "other";
  EXPECT_EQ(check_hello(client, "lab").message(), "peer cluster 'other' differs from ours 'lab'");
  Hello node = node_hello(4, 1);
  node.cluster = "";
  EXPECT_EQ(check_hello(node, "lab").message(), "peer cluster '' differs from ours 'lab'");
}

}  // namespace
}  // namespace drift
