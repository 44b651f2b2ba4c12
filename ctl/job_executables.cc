#include "ctl/job_executables.h"

#include <sys/stat.h>

#include <fstream>
#include <map>

#include "node/workers/job_binaries.h"
#include "protocol/codec.h"
#include "node/workers/machine_arch.h"
#include "node/workers/sha256.h"

namespace drift::ctl {

namespace {

Result<JobExecutable> describe(const std::string& path, const std::string& claimed_arch,
                               const std::string& origin) {
  auto arch = elf_arch(path);
  if (!arch) return Status::error(origin + ": " + arch.error());
  if (!claimed_arch.empty() && *arch != claimed_arch) {
    return Status::error(origin + ": " + path + " is an executable for " + *arch + ", not " +
                         claimed_arch);
  }
  auto sha = sha256_file(path);
  if (!sha) return Status::error(origin + ": " + sha.error());
  struct stat st {};
  ::stat(path.c_str(), &st);
  return JobExecutable{*arch, path, *sha, static_cast<std::uint64_t>(st.st_size)};
}

}  // namespace

Result<std::vector<JobExecutable>> job_executables(const std::string& main_path,
                                                   const std::vector<std::string>& binaries) {
  std::vector<JobExecutable> out;
  std::map<std::string, std::string> origin_of;  // arch -> where it was given
  auto add = [&](Result<JobExecutable> e, const std::string& origin) -> Status {
    if (!e) return e.status();
    if (auto it = origin_of.find(e->arch); it != origin_of.end()) {
      return Status::error(origin + ": a second executable for " + e->arch + " (" + it->second +
                           " is one)");
    }
    origin_of[e->arch] = origin;
    out.push_back(std::move(*e));
    return Status::ok();
  };
  if (Status st = add(describe(main_path, "", main_path), main_path); !st) return st;
  for (const std::string& b : binaries) {
    const auto eq = b.find('=');
    const std::string origin = "--binary " + b;
    if (eq == std::string::npos || eq == 0 || eq + 1 == b.size()) {
      return Status::error(origin + ": expected ARCH=FILE, e.g. s390x=build-s390x/wave");
    }
    const std::string arch = b.substr(0, eq);
    if (!known_arch(arch)) {
      return Status::error(origin + ": '" + arch + "' is no architecture drift knows (x86_64, "
                                                   "i386, s390x, aarch64, armhf, ppc64el, riscv64)");
    }
    if (Status st = add(describe(b.substr(eq + 1), arch, origin), origin); !st) return st;
  }
  return out;
}

void add_to_spec(JobSpec& spec, const std::vector<JobExecutable>& executables) {
  for (const auto& e : executables) spec.runtime[kBinaryKeyPrefix + e.arch] = e.sha256;
}

Status upload_executables(ClientConnection& connection,
                          const std::vector<JobExecutable>& executables,
                          std::uint32_t piece_bytes, std::chrono::milliseconds timeout) {
  for (const JobExecutable& e : executables) {
    const auto deadline = Clock::now() + timeout;
    if (Status st = connection.send(AppOffer{e.sha256, e.arch, e.size}); !st) return st;
    auto reply = connection.receive(deadline);
    if (!reply) return reply.status();
    auto* answer = std::get_if<AppOfferReply>(&*reply);
    if (!answer) return Status::error(connection.address() + " answered an offer with " +
                                      to_string(type_of(*reply)));
    if (!answer->error.empty()) {
      return Status::error(connection.address() + " refused " + e.path + ": " + answer->error);
    }
    if (answer->have) continue;
    std::ifstream in(e.path, std::ios::binary);
    std::vector<std::uint8_t> buf(piece_bytes);
    for (std::uint64_t at = 0; at < e.size;) {
      in.read(reinterpret_cast<char*>(buf.data()), static_cast<std::streamsize>(buf.size()));
      const auto n = static_cast<std::size_t>(in.gcount());
      if (n == 0) return Status::error(e.path + " changed while it was sent");
      AppPiece piece{e.sha256, e.size, at, std::vector<std::uint8_t>(buf.begin(), buf.begin() +
                                                                     static_cast<std::ptrdiff_t>(n))};
      if (Status st = connection.send(piece); !st) return st;
      at += n;
    }
    auto stored = connection.receive(deadline);
    if (!stored) return stored.status();
    auto* done = std::get_if<AppStored>(&*stored);
    if (!done) return Status::error(connection.address() + " answered an upload with " +
                                    to_string(type_of(*stored)));
    if (!done->ok) return Status::error(connection.address() + " did not keep " + e.path + ": " +
                                        done->error);
  }
  return Status::ok();
}

}  // namespace drift::ctl
