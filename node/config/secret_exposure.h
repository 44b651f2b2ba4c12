// Whether a file of credentials (the cluster secret, a token) is readable by every user of this
// machine: whoever reads it holds its powers, so driftd and driftctl say so, once, naming the
// file, its mode and the fix (docs/architecture.md §4). Group-readable is not warned of: the
// packaged secret is root:drift 0640 on purpose.
#pragma once

#include <optional>
#include <string>

namespace drift {

// The warning for `file` (what it is: "cluster.secret_file", "token file"), or nothing when it
// is not readable by others or cannot be inspected.
std::optional<std::string> exposure_warning(const std::string& file, const std::string& what);

}  // namespace drift
