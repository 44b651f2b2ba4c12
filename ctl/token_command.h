// `driftctl token create NAME --role user|admin [--expires DAYS] [--out FILE]`: a person's token
// (node/net/access_token.h), made from the cluster secret (--secret-file): whoever holds the
// secret is the cluster's administrator. Prints the token line, or writes it to --out (mode
// 0600). Any daemon of the cluster accepts it, with no database, until it expires or its name is
// listed in cluster.revoked_tokens. Exit 0 made, 2 bad arguments or no readable secret.
#pragma once

#include <string>
#include <vector>

#include "ctl/connection_settings.h"

namespace drift::ctl {

int token_command(const std::vector<std::string>& args, ConnectionSettings settings);

}  // namespace drift::ctl
