// fault_cpu_hogs: a hog runs at the nice value it was asked for, and is gone once killed.
#include "ctl/fault_cpu_hogs.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cerrno>

namespace drift::ctl {
namespace {

TEST(FaultCpuHogsTest, AHogRunsAtItsNiceValue) {
  for (int nice : {0, 19}) {
    auto pid = spawn_spinner(nice);
    ASSERT_TRUE(pid) << pid.error();
    errno = 0;
    const int got = ::getpriority(PRIO_PROCESS, static_cast<id_t>(*pid));
    EXPECT_EQ(errno, 0);
    EXPECT_EQ(got, nice);
    ::kill(*pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(*pid, &status, 0), *pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  }
}

}  // namespace
}  // namespace drift::ctl
