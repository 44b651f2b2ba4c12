#include "node/config/config_sources.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "node/config/config_keys.h"

namespace drift::config {


std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n\v\f");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n\v\f");
  return std::string(s.substr(first, last - first + 1));
}

Result<std::string> read_whole_file(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Status::error("cannot read: Is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::error(std::string("cannot read: ") +
                         (errno ? std::strerror(errno) : "cannot open"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::error("cannot read: I/O error");
  return text.str();
}

namespace {

// "--node.prot=1" -> "node.prot".
std::string key_name(const std::string& option) {
  const auto start = option.find_first_not_of('-');
  if (start == std::string::npos) return option;
  return option.substr(start, option.find('=') - start);
}

}  // namespace

Status read_command_line(int argc, const char* const argv[], Sources& src) {
  const auto style =
      po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
  const po::options_description options = command_line_options();  // parsed_options points here
  try {
    const po::parsed_options parsed =
        po::command_line_parser(argc, argv).options(options).style(style).run();
    for (const auto& option : parsed.options) {
      if (option.string_key.empty()) {  // a positional argument: driftd takes none
        return Status::error("unexpected argument '" + option.original_tokens.front() +
                             "' (command line); " + usage());
      }
      src.origin[option.string_key] = kCommandLine;
    }
    po::store(parsed, src.vm);
  } catch (const po::unknown_option& e) {
    return Status::error("unknown key '" + key_name(e.get_option_name()) + "' (command line); " +
                         usage());
  } catch (const po::error& e) {
    return Status::error(std::string(e.what()) + " (command line); " + usage());
  }
  src.origin.erase("config");
  return Status::ok();
}

namespace {

// Maps each key of the INI text to its line, the way Boost reads the file: '#' starts a comment
// anywhere, "[section]" prefixes the names after it, every other non-blank line is name = value.
Result<std::vector<FileEntry>> scan_ini(const std::string& text, const std::string& file,
                                        const po::options_description& keys) {
  std::vector<FileEntry> entries;
  std::map<std::string, int> first_line;
  std::istringstream in(text);
  std::string raw, section;
  for (int line = 1; std::getline(in, raw); ++line) {
    const std::string at = file + ":" + std::to_string(line);
    const std::string s = trim(std::string_view(raw).substr(0, raw.find('#')));
    if (s.empty()) continue;
    if (s.front() == '[' && s.back() == ']') {
      section = trim(std::string_view(s).substr(1, s.size() - 2));
      if (section.empty()) return Status::error(at + ": empty section name '" + s + "'");
      if (section.back() != '.') section += '.';
      continue;
    }
    const auto eq = s.find('=');
    if (eq == std::string::npos) {
      return Status::error(at + ": expected 'name = value' or '[section]', got '" + s + "'");
    }
    FileEntry e{section + trim(std::string_view(s).substr(0, eq)), trim(s.substr(eq + 1)), at};
    if (!keys.find_nothrow(e.key, false)) {
      return Status::error(at + ": unknown key '" + e.key + "'");
    }
    const auto [seen, fresh] = first_line.emplace(e.key, line);
    if (!fresh && !repeats(e.key)) {
      return Status::error(at + ": " + e.key + " = '" + e.value + "': already set on line " +
                           std::to_string(seen->second));
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace

Status read_config_file(Sources& src) {
  if (!src.vm.count("config")) return Status::ok();
  src.config_file = src.vm["config"].as<std::string>();
  auto text = read_whole_file(src.config_file);
  if (!text) {
    return Status::error("--config '" + src.config_file + "' (command line): " + text.error());
  }
  const po::options_description keys = key_options();
  auto entries = scan_ini(*text, src.config_file, keys);
  if (!entries) return entries.status();
  try {
    std::istringstream in(*text);
    po::store(po::parse_config_file(in, keys), src.vm);
  } catch (const po::error& e) {
    return Status::error(src.config_file + ": " + e.what());
  }
  for (const auto& e : *entries) src.origin.emplace(e.key, e.origin);  // command line stays
  src.file_entries = std::move(*entries);
  src.config_dir = fs::path(src.config_file).parent_path();
  return Status::ok();
}

}  // namespace drift::config
