// Architecture names, as drift writes them in job specs, member records and `--binary ARCH=FILE`:
// "x86_64", "i386", "s390x", "aarch64", "armhf", "ppc64el", "ppc64", "riscv64". The name of the
// machine a program was built for, and the architecture an ELF executable is for, read from its
// header.
#pragma once

#include <string>

#include <drift/status.h>

namespace drift {

// The architecture this program was compiled for (a daemon's is its node's).
const char* machine_arch();

// The architecture of the ELF executable at `path`; the error says why it is not one drift
// knows ("... is not an ELF executable", "... is an ELF executable for machine 43 (64-bit,
// big-endian), which drift does not know").
Result<std::string> elf_arch(const std::string& path);

// True for the names above.
bool known_arch(const std::string& name);

}  // namespace drift
