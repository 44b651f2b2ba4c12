#include "node/net/tls_channel.h"

#include <openssl/err.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

namespace drift {

namespace {

// Encrypted records waiting to be sent, and records read ahead in one read(2). Measured with
// drift_bench table (d): 64-256 KiB all do alike; 1 MiB pairs do worse (less overlap of one
// side's encryption with the other's decryption); 16 KiB reads too (more system calls).
constexpr std::size_t kPairBytes = 256u << 10;
constexpr long kReadBufferBytes = 128 * 1024;

std::string openssl_errors() {
  std::string text;
  while (const unsigned long e = ERR_get_error()) {
    char line[256];
    ERR_error_string_n(e, line, sizeof line);
    if (!text.empty()) text += "; ";
    text += line;
  }
  return text.empty() ? "unknown TLS error" : text;
}

}  // namespace

Result<std::unique_ptr<TlsChannel>> TlsChannel::make(TlsContext& context, int fd, bool server) {
  SSL_CTX* ctx = context.ssl().native_handle();
  SSL* ssl = SSL_new(ctx);
  if (ssl == nullptr) return Status::error("cannot make a TLS session: " + openssl_errors());
  BIO* inner = nullptr;
  BIO* network = nullptr;
  BIO* socket = BIO_new_socket(fd, BIO_NOCLOSE);
  if (socket == nullptr || !BIO_new_bio_pair(&inner, kPairBytes, &network, kPairBytes)) {
    if (socket) BIO_free(socket);
    SSL_free(ssl);
    return Status::error("cannot make TLS buffers: " + openssl_errors());
  }
  SSL_set_bio(ssl, socket, inner);  // reads from the socket, writes into the pair
  SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  SSL_set_read_ahead(ssl, 1);
  SSL_set_default_read_buffer_len(ssl, kReadBufferBytes);
  if (server) {
    SSL_set_accept_state(ssl);
  } else {
    SSL_set_connect_state(ssl);
  }
  return std::unique_ptr<TlsChannel>(new TlsChannel(ssl, network, fd));
}

TlsChannel::~TlsChannel() {
  SSL_free(ssl_);  // frees the socket BIO and the pair's inner half
  BIO_free(network_);
}

Status TlsChannel::failure(int ret, const char* what) {
  const int error = SSL_get_error(ssl_, ret);
  if (error == SSL_ERROR_ZERO_RETURN) return Status::error("connection closed by peer");
  if (error == SSL_ERROR_SYSCALL) {
    const int saved = errno;
    const std::string queued = openssl_errors();
    if (queued != "unknown TLS error") return Status::error(std::string(what) + ": " + queued);
    if (ret == 0 || saved == 0) return Status::error("connection closed by peer");
    return Status::error(std::string(what) + ": " + std::strerror(saved));
  }
  return Status::error(std::string(what) + ": " + openssl_errors());
}

Result<bool> TlsChannel::handshake() {
  ERR_clear_error();
  const int ret = SSL_do_handshake(ssl_);
  if (ret == 1) return true;
  const int error = SSL_get_error(ssl_, ret);
  if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) return false;
  return failure(ret, "TLS handshake");
}

Result<std::size_t> TlsChannel::read(std::span<std::uint8_t> into) {
  if (into.empty()) return std::size_t{0};
  ERR_clear_error();
  std::size_t n = 0;
  const int ret = SSL_read_ex(ssl_, into.data(), into.size(), &n);
  if (ret == 1) return n;
  const int error = SSL_get_error(ssl_, ret);
  if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) return std::size_t{0};
  return failure(ret, "refused TLS record");  // a record that does not decrypt: altered
}

Result<std::size_t> TlsChannel::write(std::span<const std::uint8_t> bytes) {
  if (bytes.empty()) return std::size_t{0};
  ERR_clear_error();
  std::size_t n = 0;
  const int ret = SSL_write_ex(ssl_, bytes.data(), bytes.size(), &n);
  if (ret == 1) return n;
  const int error = SSL_get_error(ssl_, ret);
  if (error == SSL_ERROR_WANT_WRITE || error == SSL_ERROR_WANT_READ) return std::size_t{0};
  return failure(ret, "TLS write");
}

Result<bool> TlsChannel::flush() {
  while (true) {
    char* data = nullptr;
    const int available = BIO_nread0(network_, &data);
    if (available <= 0) return true;
    const ssize_t sent = ::send(fd_, data, static_cast<std::size_t>(available),
                                MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return false;
      if (errno == EINTR) continue;
      return Status::error(std::string("write failed: ") + std::strerror(errno));
    }
    BIO_nread(network_, &data, static_cast<int>(sent));
  }
}

bool TlsChannel::has_output() const { return BIO_ctrl_pending(network_) > 0; }

}  // namespace drift
