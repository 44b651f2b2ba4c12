// TLS 1.3 over a connected, non-blocking TCP socket, driven by OpenSSL directly (PeerConnection
// waits for the socket itself). Records are read from the socket with read-ahead, so one read
// takes in many of them; records written go into a 256 KiB memory pair first and leave in one
// send, so a 1 MiB frame costs a handful of system calls instead of one per 16 KiB record (what
// Asio's SSL stream does). The context (tls_context.h) says who may connect and with which key.
// Not thread-safe; used on the thread that runs its connection.
#pragma once

#include <openssl/ssl.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include <drift/status.h>
#include "node/net/tls_context.h"

namespace drift {

class TlsChannel {
 public:
  static Result<std::unique_ptr<TlsChannel>> make(TlsContext& context, int fd, bool server);
  ~TlsChannel();
  TlsChannel(const TlsChannel&) = delete;
  TlsChannel& operator=(const TlsChannel&) = delete;

  // One handshake step: true when done; false: wait until the socket is readable (after flush()).
  Result<bool> handshake();
  // Decrypted bytes into `into`: how many; 0 when nothing is there yet (wait until readable).
  // An error when the peer closed ("connection closed by peer") or sent a bad record.
  Result<std::size_t> read(std::span<std::uint8_t> into);
  // Encrypts from `bytes` what fits in the memory pair: how many bytes it took (0: flush first).
  Result<std::size_t> write(std::span<const std::uint8_t> bytes);
  // Sends what is encrypted: true when all of it left; false when the socket is full (wait
  // until writable).
  Result<bool> flush();
  bool has_output() const;

  SSL* ssl() { return ssl_; }

 private:
  TlsChannel(SSL* ssl, BIO* network, int fd) : ssl_(ssl), network_(network), fd_(fd) {}
  Status failure(int ret, const char* what);

  SSL* ssl_ = nullptr;
  BIO* network_ = nullptr;  // our end of the memory pair SSL writes records into
  int fd_ = -1;
};

}  // namespace drift
