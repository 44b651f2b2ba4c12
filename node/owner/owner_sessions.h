// Pure parsing for the owner detector (docs/architecture.md §9): which terminals belong to logged-in users,
// from utmp records or from logind's session files, and how long ago the owner last touched
// anything. No I/O: bytes, texts and times come in as arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace drift {

// The terminal lines ("pts/3", "tty1") of the user-process records in a utmp file's bytes (an
// array of struct utmp, as glibc writes /var/run/utmp). A trailing partial record is ignored;
// lines that are not safe device names (see safe_tty_line) are skipped.
std::vector<std::string> utmp_session_lines(std::span<const std::uint8_t> bytes);

// The TTY= value of a logind session file (/run/systemd/sessions/<id>, "KEY=value" lines), if it
// names a safe terminal line; a graphical session without a tty has none.
std::optional<std::string> logind_session_line(std::string_view text);

// A terminal line that names a device under /dev: non-empty, no "..", not absolute, only
// letters, digits, '/', '-', '_' and '.'. Anything else (a hostile or corrupt record) is refused.
bool safe_tty_line(std::string_view line);

// Seconds from the latest of `times` (seconds since the epoch) to `now`; nullopt when there are
// none. Never negative: a clock step or a touch "in the future" counts as input just now.
std::optional<double> idle_since(double now, std::span<const double> times);

// The owner's idle time: the smallest of the inputs that said something; +infinity if none did.
double owner_idle(std::span<const std::optional<double>> inputs);

}  // namespace drift
