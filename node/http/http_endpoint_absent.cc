// HttpEndpoint in a driftd built without cpp-httplib (node/daemon.cmake): start() says so and
// the daemon runs on without the endpoint, as it does when the port is taken.
#include "node/http/http_endpoint.h"

namespace httplib {
class Server {};
}  // namespace httplib

namespace drift {

struct HttpEndpoint::State {
  std::map<std::string, Route> routes;
};

HttpEndpoint::HttpEndpoint(asio::io_context&, std::map<std::string, Route> routes)
    : state_(std::make_shared<State>()) {
  state_->routes = std::move(routes);
}

HttpEndpoint::~HttpEndpoint() = default;

Status HttpEndpoint::start(const Endpoint&, std::optional<Tls>) {
  return Status::error("this driftd was built without cpp-httplib (libcpp-httplib-dev)");
}

std::uint64_t HttpEndpoint::requests() const { return 0; }

void HttpEndpoint::close() {}

}  // namespace drift
