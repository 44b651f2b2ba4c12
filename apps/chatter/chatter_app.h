// chatter as the runtime sees it (drift/application.h): the chaos-test application. Tasks
// exchange numbered, checkable messages on random channels every step; the job's checksum
// (wrapping sum of the tasks' digests) equals the serial reference's exactly when every message
// arrived exactly once, in channel order, with the right content. Details: messages, bytes.
#pragma once

#include <memory>

#include <drift/application.h>

namespace drift::chatter {

std::unique_ptr<Application> make_chatter_app();

}  // namespace drift::chatter
