#include "node/workers/machine_arch.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>

namespace drift {

namespace {

struct ArchName {
  std::uint16_t machine;  // e_machine
  int bits;               // 32 or 64 (EI_CLASS)
  int endian;             // 1 little, 2 big (EI_DATA)
  const char* name;
};

constexpr std::array<ArchName, 8> kArchs{{
    {62, 64, 1, "x86_64"},
    {3, 32, 1, "i386"},
    {22, 64, 2, "s390x"},
    {183, 64, 1, "aarch64"},
    {40, 32, 1, "armhf"},
    {21, 64, 1, "ppc64el"},
    {243, 64, 1, "riscv64"},
    {21, 64, 2, "ppc64"},
}};

}  // namespace

const char* machine_arch() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__i386__)
  return "i386";
#elif defined(__s390x__)
  return "s390x";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__arm__)
  return "armhf";
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
  return "ppc64el";
#elif defined(__powerpc64__)
  return "ppc64";
#elif defined(__riscv) && __riscv_xlen == 64
  return "riscv64";
#else
  return "unknown";
#endif
}

bool known_arch(const std::string& name) {
  for (const ArchName& a : kArchs) {
    if (name == a.name) return true;
  }
  return false;
}

Result<std::string> elf_arch(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error("cannot read " + path + ": " + std::strerror(errno));
  std::array<unsigned char, 20> h{};
  in.read(reinterpret_cast<char*>(h.data()), h.size());
  if (in.gcount() < static_cast<std::streamsize>(h.size()) || h[0] != 0x7f || h[1] != 'E' ||
      h[2] != 'L' || h[3] != 'F') {
    return Status::error(path + " is not an ELF executable");
  }
  if (h[4] != 1 && h[4] != 2) {
    return Status::error(path + " is an ELF file of an invalid word size (EI_CLASS " +
                         std::to_string(h[4]) + ")");
  }
  if (h[5] != 1 && h[5] != 2) {
    return Status::error(path + " is an ELF file of an invalid byte order (EI_DATA " +
                         std::to_string(h[5]) + ")");
  }
  const int bits = h[4] == 1 ? 32 : 64;
  const int endian = h[5];
  // e_machine follows e_ident (16 bytes) and e_type (2), in the file's byte order.
  const std::uint16_t machine = endian == 2 ? static_cast<std::uint16_t>(h[18] << 8 | h[19])
                                            : static_cast<std::uint16_t>(h[19] << 8 | h[18]);
  for (const ArchName& a : kArchs) {
    if (a.machine == machine && a.bits == bits && a.endian == endian) return std::string(a.name);
  }
  return Status::error(path + " is an ELF executable for machine " + std::to_string(machine) +
                       " (" + std::to_string(bits) + "-bit, " +
                       (endian == 2 ? "big" : "little") + "-endian), which drift does not know");
}

}  // namespace drift
