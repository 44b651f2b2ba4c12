// Where driftd's configuration comes from (node/config/config.h): the command line, then the INI
// file, stored in Boost's variables_map with the origin of every key ("conf/node1.conf:7",
// "command line"). Internal to node/config/.
#pragma once

#include <boost/program_options.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <drift/status.h>

namespace drift::config {

namespace po = boost::program_options;
namespace fs = std::filesystem;

inline constexpr const char* kCommandLine = "command line";
inline constexpr std::uint64_t kOneMinuteMs = 60'000;

struct FileEntry {
  std::string key;
  std::string value;
  std::string origin;  // "file:line"
};

// Everything read so far: Boost's map plus where each key (and each seeds value) came from.
struct Sources {
  po::variables_map vm;
  std::map<std::string, std::string> origin;
  std::vector<FileEntry> file_entries;
  std::string config_file;
  fs::path config_dir;
};

std::string trim(std::string_view s);
Result<std::string> read_whole_file(const std::string& path);
Status read_command_line(int argc, const char* const argv[], Sources& src);
// Stored after the command line, so store() keeps every value given there.
Status read_config_file(Sources& src);

}  // namespace drift::config
