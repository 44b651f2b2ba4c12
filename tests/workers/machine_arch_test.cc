// machine_arch: the architecture this program was built for, the one an ELF executable is for
// (read from its header: class, byte order, e_machine), and which architecture names drift knows.
#include "node/workers/machine_arch.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/workers/temp_dir.h"

namespace drift {
namespace {

// The 64 bytes of an ELF header (ELF64's size; ELF32's is shorter, the rest is ignored) of an
// executable (e_type 2) for `machine`, in the file's byte order.
std::vector<std::uint8_t> elf_header(int bits, bool big_endian, std::uint16_t machine) {
  std::vector<std::uint8_t> h(64, 0);
  h[0] = 0x7f;
  h[1] = 'E';
  h[2] = 'L';
  h[3] = 'F';
  h[4] = bits == 64 ? 2 : 1;        // EI_CLASS
  h[5] = big_endian ? 2 : 1;        // EI_DATA
  h[6] = 1;                         // EI_VERSION
  const auto put16 = [&](std::size_t at, std::uint16_t v) {
    const auto lo = static_cast<std::uint8_t>(v & 0xff);
    const auto hi = static_cast<std::uint8_t>(v >> 8);
    h[at] = big_endian ? hi : lo;
    h[at + 1] = big_endian ? lo : hi;
  };
  put16(16, 2);        // e_type: ET_EXEC
  put16(18, machine);  // e_machine
  return h;
}

Result<std::string> arch_of(const test::TempDir& dir, const std::string& name,
                            const std::vector<std::uint8_t>& bytes) {
  return elf_arch(test::write_file(dir / name, bytes, 0755));
}

TEST(MachineArch, ThisProgramIsForTheMachineItWasBuiltFor) {
  auto arch = elf_arch("/proc/self/exe");
  ASSERT_TRUE(arch) << arch.error();
  EXPECT_EQ(*arch, machine_arch());
  EXPECT_TRUE(known_arch(machine_arch())) << machine_arch();
}

TEST(MachineArch, ReadsTheMachineOfABigEndianS390xHeader) {
  test::TempDir dir;
  auto arch = arch_of(dir, "s390x", elf_header(64, true, 22));
  ASSERT_TRUE(arch) << arch.error();
  EXPECT_EQ(*arch, "s390x");
}

TEST(MachineArch, ReadsTheMachineOfA32BitLittleEndianI386Header) {
  test::TempDir dir;
  auto arch = arch_of(dir, "i386", elf_header(32, false, 3));
  ASSERT_TRUE(arch) << arch.error();
  EXPECT_EQ(*arch, "i386");
}

TEST(MachineArch, NamesEveryArchitectureItKnowsAndEachNameIsKnown) {
  struct Case {
    int bits;
    bool big_endian;
    std::uint16_t machine;
    const char* name;
  };
  const Case cases[] = {{64, false, 62, "x86_64"},  {64, false, 183, "aarch64"},
                        {32, false, 40, "armhf"},   {64, false, 21, "ppc64el"},
                        {64, false, 243, "riscv64"}, {64, true, 21, "ppc64"}};
  test::TempDir dir;
  for (const Case& c : cases) {
    auto arch = arch_of(dir, c.name, elf_header(c.bits, c.big_endian, c.machine));
    ASSERT_TRUE(arch) << c.name << ": " << arch.error();
    EXPECT_EQ(*arch, c.name);
    EXPECT_TRUE(known_arch(*arch)) << *arch;
  }
}

TEST(MachineArch, TheMachineIsReadInTheFilesByteOrder) {
  test::TempDir dir;
  // EM_S390 written little-endian in a file that says it is big-endian: machine 0x1600.
  std::vector<std::uint8_t> h = elf_header(64, true, 22);
  std::swap(h[18], h[19]);
  auto arch = arch_of(dir, "swapped", h);
  ASSERT_FALSE(arch);
  EXPECT_NE(arch.error().find("machine 5632"), std::string::npos) << arch.error();
}

TEST(MachineArch, AKnownMachineOfTheWrongClassIsRefused) {
  test::TempDir dir;
  auto arch = arch_of(dir, "i386-64", elf_header(64, false, 3));
  ASSERT_FALSE(arch);
  EXPECT_NE(arch.error().find("machine 3 (64-bit"), std::string::npos) << arch.error();
}

TEST(MachineArch, AnUnknownMachineIsRefusedByNumber) {
  test::TempDir dir;
  const std::string path = test::write_file(dir / "vax", elf_header(64, false, 999), 0755);
  auto arch = elf_arch(path);
  ASSERT_FALSE(arch);
  EXPECT_EQ(arch.error(), path + " is an ELF executable for machine 999 (64-bit, little-endian), "
                                 "which drift does not know");
}

TEST(MachineArch, AFileThatIsNoElfIsRefused) {
  test::TempDir dir;
  const std::string script = test::write_file(dir / "script", std::string("#!/bin/sh\nexit 0\n"
                                                                           "# padding padding\n"),
                                              0755);
  auto arch = elf_arch(script);
  ASSERT_FALSE(arch);
  EXPECT_EQ(arch.error(), script + " is not an ELF executable");
  std::vector<std::uint8_t> cut = elf_header(64, false, 62);
  cut.resize(19);  // the magic, but the header ends before e_machine does
  EXPECT_FALSE(arch_of(dir, "cut", cut));
  EXPECT_FALSE(arch_of(dir, "empty", {}));
}

TEST(MachineArch, AMissingFileIsAnErrorNamingIt) {
  test::TempDir dir;
  auto arch = elf_arch(dir / "absent");
  ASSERT_FALSE(arch);
  EXPECT_NE(arch.error().find("cannot read " + (dir / "absent")), std::string::npos)
      << arch.error();
}

TEST(KnownArch, KnowsTheDocumentedNamesOnly) {
  for (const char* name : {"x86_64", "i386", "s390x", "aarch64", "armhf", "ppc64el", "riscv64"}) {
    EXPECT_TRUE(known_arch(name)) << name;
  }
  for (const char* name : {"", "amd64", "x86-64", "X86_64", "arm64", "unknown", "x86_64 "}) {
    EXPECT_FALSE(known_arch(name)) << "'" << name << "'";
  }
}

}  // namespace
}  // namespace drift
