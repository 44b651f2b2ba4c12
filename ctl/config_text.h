// driftd's INI config edited as text, keeping its comments and layout: read a key's value, set a
// key (its line replaced; else added at the end of its section; else in a new section at the
// end), comment a key out. Keys are "section.name", as `driftd --help` lists them. Used by
// `driftctl local up` and `driftctl cluster init | join-config`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace drift::ctl::config_text {

std::string trim(std::string_view s);
// The section a "[name]" line opens, or "" when the (trimmed) line is not a section header.
std::string section_of(const std::string& line);
// "section.key" for a (trimmed) "key = value" line in `section`, or "" for comments and blanks.
std::string key_of(const std::string& line, const std::string& section);

// The value of the first line setting `key`, trimmed; nullopt when no line sets it.
std::optional<std::string> get(const std::string& text, const std::string& key);
bool sets(const std::string& text, const std::string& key);
// `text` with `key` set to `value`: the first line setting it replaced, later ones commented out.
std::string set(const std::string& text, const std::string& key, const std::string& value);
// `text` with every line setting `key` commented out, "# (why) " before it.
std::string comment_out(const std::string& text, const std::string& key, const std::string& why);

}  // namespace drift::ctl::config_text
