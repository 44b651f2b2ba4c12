#include "node/machine/capabilities.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace drift {

bool has_capability(int cap) {
  if (cap < 0 || cap >= 64) return false;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (::syscall(SYS_capget, &header, data) != 0) return false;
  return (data[cap / 32].effective >> (cap % 32)) & 1u;
}

bool may_switch_users() {
  return ::geteuid() == 0 ||
         (has_capability(CAP_SETUID) && has_capability(CAP_SETGID) && has_capability(CAP_KILL));
}

}  // namespace drift
