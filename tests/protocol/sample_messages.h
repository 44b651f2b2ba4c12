// One representative, non-trivial instance of every wire message (negative and fractional doubles,
// non-ASCII bytes, multi-entry containers, every enum value somewhere). The golden vectors in
// golden_vectors.inc are these messages' exact frames.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages.h"

namespace drift::test {

struct SampleMessage {
  std::string name;  // unique, used as the golden vector's key
  WireMessage message;
};

const std::vector<SampleMessage>& sample_messages();
const WireMessage& sample_message(std::string_view name);

}  // namespace drift::test
