// Errors as values (STYLE.md): Status for operations without a result, Result<T> for those with
// one. The message names the offending value and where it came from.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace drift {

class Status {
 public:
  static Status ok() { return Status(); }
  static Status error(std::string message) { return Status(std::move(message)); }

  bool is_ok() const { return !failed_; }
  explicit operator bool() const { return is_ok(); }
  const std::string& message() const { return message_; }

 private:
  Status() = default;
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status error) : v_(std::move(error)) {}  // NOLINT: must be an error status

  bool is_ok() const { return v_.index() == 0; }
  explicit operator bool() const { return is_ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  Status status() const { return is_ok() ? Status::ok() : std::get<1>(v_); }
  const std::string& error() const { return std::get<1>(v_).message(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace drift
