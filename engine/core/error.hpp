#pragma once
// Typed errors: every failure a user can cause carries a code, a message saying what went wrong
// and, where there is one, a hint saying what to do about it.
#include <stdexcept>
#include <string>

namespace kinetic {

enum class ErrorCode {
  FileNotFound,       // a file the user named does not exist or cannot be read
  ParseError,         // malformed XML / TOML / JSON (message carries file and line)
  UnknownRobot,       // built-in robot name not in the library (hint lists close names)
  MissingLink,        // a link name that the model does not have
  MissingJoint,       // a joint name that the model does not have
  MissingMesh,        // a mesh URI that resolves to no readable file
  DimensionMismatch,  // a joint vector of the wrong size
  InvalidValue,       // NaN, infinity, or a value outside its meaning (negative size, ...)
  OutOfLimits,        // a joint value outside its limits
  InvalidModel,       // a structurally broken model (cycles, two roots, bad chain)
  Unreachable,        // no IK solution / goal cannot be reached
  InCollision,        // a state that collides (message names the links)
  Timeout,            // ran out of its time budget
  Cancelled,          // stopped at the caller's request
  IoError,            // a write that failed (nothing partial is left behind)
  Unsupported,        // a feature the file uses that we do not support
};

const char* to_string(ErrorCode code);

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, std::string message, std::string hint = {});
  ErrorCode code() const noexcept { return code_; }
  const std::string& message() const noexcept { return message_; }
  const std::string& hint() const noexcept { return hint_; }

 private:
  ErrorCode code_;
  std::string message_;
  std::string hint_;
};

}  // namespace kinetic
