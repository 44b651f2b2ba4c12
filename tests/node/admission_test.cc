#include "node/net/admission.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

using namespace std::chrono_literals;
const Admission::TimePoint kAdmissionT0{std::chrono::seconds(1000)};

TEST(AdmissionTest, CapsConnectionsInTheirHandshakeInAllAndPerAddress) {
  Admission a({/*max_pending=*/5, /*per_address=*/3, /*per_second=*/1000, /*burst=*/1000});
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a.admit("10.0.0.1", kAdmissionT0), "");
  const std::string refused = a.admit("10.0.0.1", kAdmissionT0);
  EXPECT_NE(refused.find("3 connections from 10.0.0.1"), std::string::npos) << refused;
  EXPECT_EQ(a.admit("10.0.0.2", kAdmissionT0), "");
  EXPECT_EQ(a.admit("10.0.0.3", kAdmissionT0), "");
  EXPECT_EQ(a.pending(), 5u);
  EXPECT_NE(a.admit("10.0.0.4", kAdmissionT0).find("5 connections are already"), std::string::npos);
  // One authenticated (or closed): room again, from that address too.
  a.settled("10.0.0.1");
  EXPECT_EQ(a.admit("10.0.0.1", kAdmissionT0), "");
  // Settling what was never admitted changes nothing.
  a.settled("10.9.9.9");
  EXPECT_EQ(a.pending(), 5u);
}

TEST(AdmissionTest, SaysWhichBoundANewConnectionWouldMeet) {
  Admission a({/*max_pending=*/4, /*per_address=*/2, /*per_second=*/1000, /*burst=*/1000});
  EXPECT_EQ(a.full("10.0.0.1", kAdmissionT0), Admission::Full::kNo);
  EXPECT_EQ(a.admit("10.0.0.1", kAdmissionT0), "");
  EXPECT_EQ(a.admit("10.0.0.1", kAdmissionT0), "");
  EXPECT_EQ(a.full("10.0.0.1", kAdmissionT0), Admission::Full::kAddress);
  EXPECT_EQ(a.full("10.0.0.2", kAdmissionT0), Admission::Full::kNo);
  EXPECT_EQ(a.admit("10.0.0.2", kAdmissionT0), "");
  EXPECT_EQ(a.admit("10.0.0.3", kAdmissionT0), "");
  EXPECT_EQ(a.full("10.0.0.9", kAdmissionT0), Admission::Full::kAll);
  a.settled("10.0.0.1");
  EXPECT_EQ(a.full("10.0.0.1", kAdmissionT0), Admission::Full::kNo);
  // Out of its rate: said before any bound, so nothing is closed for it.
  Admission slow({/*max_pending=*/4, /*per_address=*/2, /*per_second=*/1, /*burst=*/1});
  EXPECT_EQ(slow.admit("10.0.0.1", kAdmissionT0), "");
  EXPECT_EQ(slow.full("10.0.0.1", kAdmissionT0), Admission::Full::kRate);
  EXPECT_EQ(slow.full("10.0.0.1", kAdmissionT0 + 2s), Admission::Full::kNo);
}

TEST(AdmissionTest, LimitsTheRateOfNewConnectionsPerAddress) {
  Admission a({/*max_pending=*/1000, /*per_address=*/1000, /*per_second=*/10, /*burst=*/20});
  int admitted = 0;
  for (int i = 0; i < 50; ++i) {
    if (a.admit("10.0.0.1", kAdmissionT0).empty()) {
      ++admitted;
      a.settled("10.0.0.1");
    }
  }
  EXPECT_EQ(admitted, 20) << "a burst of 20";
  EXPECT_NE(
      a.admit("10.0.0.1", kAdmissionT0).find("more than 10 connections a second from 10.0.0.1"),
      std::string::npos);
  EXPECT_EQ(a.admit("10.0.0.2", kAdmissionT0), "") << "another address has its own budget";
  // Half a second later: 5 more.
  admitted = 0;
  for (int i = 0; i < 50; ++i) {
    if (a.admit("10.0.0.1", kAdmissionT0 + 500ms).empty()) {
      ++admitted;
      a.settled("10.0.0.1");
    }
  }
  EXPECT_EQ(admitted, 5);
}

TEST(AdmissionTest, ManyAddressesAreRememberedWithinBounds) {
  Admission a({/*max_pending=*/1u << 20, /*per_address=*/1, /*per_second=*/1, /*burst=*/1});
  for (int i = 0; i < 20000; ++i) {
    const std::string address = "10." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".1";
    ASSERT_EQ(a.admit(address, kAdmissionT0 + std::chrono::seconds(i)), "") << address;
    a.settled(address);
  }
  EXPECT_LE(a.addresses_remembered(), 4096u);
  // The first address's bucket refilled long ago: it was forgotten or is full again.
  EXPECT_EQ(a.admit("10.0.0.1", kAdmissionT0 + std::chrono::seconds(30000)), "");
}

}  // namespace
}  // namespace drift
