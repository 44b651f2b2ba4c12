// pingpong as the runtime sees it (drift/application.h): two tasks bounce a payload `rounds`
// times, for task-to-task latency and throughput. The checksum covers (rounds, bytes, the last
// payload, the echo count) and equals the serial reference's; details of a real run: rtt_us (mean
// round trip), throughput_MBps (2 x rounds x bytes / elapsed, 1 MB = 10^6 bytes), elapsed_s.
#pragma once

#include <memory>

#include <drift/application.h>

namespace drift::pingpong {

std::unique_ptr<Application> make_pingpong_app();

}  // namespace drift::pingpong
