// How the daemon's parts send to other nodes without knowing about sockets: a message to a node
// id, which may be this node itself (then it is dispatched locally, after the current handler).
#pragma once

#include <cstdint>

#include "protocol/out_frame.h"
#include "protocol/messages.h"

namespace drift {

class Messenger {
 public:
  virtual ~Messenger() = default;
  virtual std::uint32_t self_id() const = 0;
  virtual void send_to_node(std::uint32_t node_id, WireMessage msg) = 0;
  // Like send_to_node, but queued behind small messages on the connection (state chunks).
  virtual void send_bulk_to_node(std::uint32_t node_id, WireMessage msg) {
    send_to_node(node_id, std::move(msg));
  }
  // An already encoded frame to another node (state written without a copy): bulk, queued
  // behind small messages, unless `bulk` is false (then in order with them).
  virtual void send_frame(std::uint32_t node_id, Frame frame, bool bulk = true) = 0;
};

}  // namespace drift
