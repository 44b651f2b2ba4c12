// Parsing for the owner detector (node/owner/owner_sessions.h): utmp records, logind session files,
// idle arithmetic.
#include "node/owner/owner_sessions.h"

#include <gtest/gtest.h>
#include <utmp.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace drift {
namespace {

utmp record(short type, const char* line) {
  utmp r{};
  r.ut_type = type;
  std::strncpy(r.ut_line, line, sizeof r.ut_line);  // NUL-padded, as glibc writes it
  return r;
}

std::vector<std::uint8_t> bytes_of(const std::vector<utmp>& records) {
  std::vector<std::uint8_t> out(records.size() * sizeof(utmp));
  if (!records.empty()) std::memcpy(out.data(), records.data(), out.size());
  return out;
}

TEST(OwnerSessionsTest, UtmpYieldsTheLinesOfUserProcessesOnly) {
  auto bytes = bytes_of({record(BOOT_TIME, "~"), record(USER_PROCESS, "pts/3"),
                         record(DEAD_PROCESS, "pts/1"), record(LOGIN_PROCESS, "tty2"),
                         record(USER_PROCESS, "tty1")});
  EXPECT_EQ(utmp_session_lines(bytes), (std::vector<std::string>{"pts/3", "tty1"}));
}

TEST(OwnerSessionsTest, UtmpLineFillingTheWholeFieldHasNoTerminator) {
  char full[sizeof(utmp{}.ut_line) + 1];
  std::memset(full, 'a', sizeof full - 1);
  full[sizeof full - 1] = '\0';
  auto bytes = bytes_of({record(USER_PROCESS, full)});
  ASSERT_EQ(utmp_session_lines(bytes).size(), 1u);
  EXPECT_EQ(utmp_session_lines(bytes)[0].size(), sizeof(utmp{}.ut_line));
}

TEST(OwnerSessionsTest, UtmpIgnoresATrailingPartialRecordAndHostileLines) {
  auto bytes = bytes_of({record(USER_PROCESS, "../../etc/shadow"), record(USER_PROCESS, "/x"),
                         record(USER_PROCESS, "pts/0")});
  bytes.resize(bytes.size() + 7, 0xff);
  EXPECT_EQ(utmp_session_lines(bytes), (std::vector<std::string>{"pts/0"}));
  EXPECT_TRUE(utmp_session_lines({}).empty());
}

TEST(OwnerSessionsTest, LogindSessionFileGivesItsTty) {
  EXPECT_EQ(logind_session_line("# This is private data.\nUID=1000\nTTY=pts/4\nSTATE=active\n"),
            "pts/4");
  EXPECT_EQ(logind_session_line("UID=1000\nTTY=/dev/tty2\n"), "tty2");
  EXPECT_EQ(logind_session_line("UID=1000\nTYPE=wayland\n"), std::nullopt);  // no terminal
  EXPECT_EQ(logind_session_line("TTY=../../dev/sda\n"), std::nullopt);
}

TEST(OwnerSessionsTest, SafeLinesAreRelativeDeviceNames) {
  EXPECT_TRUE(safe_tty_line("pts/12"));
  EXPECT_TRUE(safe_tty_line("ttyS0"));
  EXPECT_FALSE(safe_tty_line(""));
  EXPECT_FALSE(safe_tty_line("/dev/pts/1"));
  EXPECT_FALSE(safe_tty_line("pts/../sda"));
  EXPECT_FALSE(safe_tty_line("pts 1"));
}

TEST(OwnerSessionsTest, IdleIsMeasuredFromTheLatestTime) {
  const double times[] = {100, 250, 180};
  EXPECT_EQ(idle_since(300, times), 50);
  EXPECT_EQ(idle_since(200, times), 0);  // a time in the future counts as input now
  EXPECT_EQ(idle_since(300, {}), std::nullopt);
}

TEST(OwnerSessionsTest, OwnerIdleIsTheSmallestInputThatSaidSomething) {
  const std::optional<double> some[] = {std::nullopt, 40.0, 7.5};
  EXPECT_EQ(owner_idle(some), 7.5);
  const std::optional<double> none[] = {std::nullopt, std::nullopt};
  EXPECT_TRUE(std::isinf(owner_idle(none)));
}

}  // namespace
}  // namespace drift
