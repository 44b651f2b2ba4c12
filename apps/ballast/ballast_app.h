// ballast as the runtime sees it (drift/application.h): tasks that carry a big state and little
// work, for timing migrations. The checksum (wrapping sum of the tasks' state digests) equals
// the serial reference's when every state survived every move intact. Details: state_bytes.
#pragma once

#include <memory>

#include <drift/application.h>

namespace drift::ballast {

std::unique_ptr<Application> make_ballast_app();

}  // namespace drift::ballast
