// Which Linux capabilities this process holds (docs/architecture.md §11.4). A daemon run as root
// may switch its workers to other users; so may one run as an unprivileged user with exactly
// the capabilities that needs (the packaged service: the drift user with CAP_SETUID, CAP_SETGID
// and CAP_KILL), and no more.
#pragma once

namespace drift {

// Whether capability `cap` (CAP_SETUID, ...) is in this process's effective set (capget).
bool has_capability(int cap);

// Whether this process may run its workers as users other than its own and kill them: root, or
// CAP_SETUID, CAP_SETGID and CAP_KILL all effective.
bool may_switch_users();

}  // namespace drift
