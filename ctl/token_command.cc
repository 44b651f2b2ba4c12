// `driftctl token create` (token_command.h).
#include "ctl/token_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <iostream>

#include "ctl/command_line.h"
#include "ctl/exit_codes.h"
#include "ctl/secret_file.h"
#include "node/net/access_token.h"
#include "node/net/tls_context.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

constexpr const char* kCommand = "token create";

void print_token_help(const po::options_description& options) {
  std::cout << "Usage: driftctl [--secret-file FILE] token create NAME --role user|admin\n"
               "                [--expires DAYS] [--out FILE]\n\n"
               "Makes a token for the person NAME from the cluster secret. A user may run jobs,\n"
               "see the cluster and attach to their own jobs; an admin may also move tasks,\n"
               "reclaim and release nodes and attach to any job. They connect with\n"
               "'driftctl --token-file FILE' (or DRIFT_TOKEN_FILE) instead of the secret.\n"
               "List NAME in cluster.revoked_tokens (and send the daemons SIGHUP) to revoke it.\n\n"
            << options;
}

Status write_private(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Status::error("cannot create " + path + ": " + std::strerror(errno));
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok) return Status::error("cannot write " + path);
  return Status::ok();
}

}  // namespace

int token_command(const std::vector<std::string>& args, ConnectionSettings settings) {
  std::string what, name, role, out;
  double days = 0;
  po::options_description options("Token options");
  auto add = options.add_options();
  add("role", po::value(&role)->value_name("ROLE"), "user or admin (required)");
  add("expires", po::value(&days)->value_name("DAYS"), "valid this many days (default: no expiry)");
  add("out", po::value(&out)->value_name("FILE"),
      "write the token to this new file, mode 0600 (default: print it)");
  add("help,h", "show this help");
  options.add(settings.options());
  po::options_description hidden;
  hidden.add_options()("what", po::value(&what))("name", po::value(&name));
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("what", 1).add("name", 1);
  po::variables_map vm;
  if (Status s = parse_args(args, all, positional, vm); !s) return usage_error(kCommand, s.message());
  if (vm.count("help")) return print_token_help(options), kExitOk;
  if (what != "create") return usage_error("token", "expected 'token create NAME --role ROLE'");
  if (Status st = check_token_name(name); !st) return usage_error(kCommand, st.message());
  Token token;
  token.name = name;
  auto parsed_role = parse_role(role);
  if (!parsed_role) return usage_error(kCommand, "--" + parsed_role.error());
  token.role = *parsed_role;
  if (vm.count("expires")) {
    if (!(days > 0) || days > 36500) {
      return usage_error(kCommand, "--expires '" + plain_number(days) + "' must be in (0, 36500] days");
    }
    token.expires = static_cast<std::int64_t>(std::time(nullptr)) +
                    static_cast<std::int64_t>(days * 86400);
  }
  auto secret = read_secret_file(settings.secret_file);
  if (!secret) {
    return usage_error(kCommand, secret.error() + " (the cluster secret, from " +
                                     settings.secret_origin + ")");
  }
  const std::string text = token_file_text(token, tls_psk(*secret, token.identity()));
  if (out.empty()) {
    std::cout << text;
    return kExitOk;
  }
  if (Status st = write_private(out, text); !st) return report_failure(kExitFailed, st.message());
  std::cout << "token for " << name << " (" << role << ") written to " << out << "\n";
  return kExitOk;
}

}  // namespace drift::ctl
