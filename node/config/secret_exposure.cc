#include "node/config/secret_exposure.h"

#include <sys/stat.h>

#include <cstdio>

namespace drift {

std::optional<std::string> exposure_warning(const std::string& file, const std::string& what) {
  struct stat st {};
  if (file.empty() || ::stat(file.c_str(), &st) != 0 || (st.st_mode & S_IROTH) == 0) {
    return std::nullopt;
  }
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return what + " '" + file + "' is readable by every user of this machine (mode " + mode +
         "), and whoever reads it holds its powers: chmod o-rwx '" + file + "'";
}

}  // namespace drift
