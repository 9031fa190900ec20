#include "engine/core/error.hpp"

#include "engine/core/printable_text.hpp"

namespace kinetic {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::FileNotFound:
      return "file not found";
    case ErrorCode::ParseError:
      return "parse error";
    case ErrorCode::UnknownRobot:
      return "unknown robot";
    case ErrorCode::MissingLink:
      return "missing link";
    case ErrorCode::MissingJoint:
      return "missing joint";
    case ErrorCode::MissingMesh:
      return "missing mesh";
    case ErrorCode::DimensionMismatch:
      return "dimension mismatch";
    case ErrorCode::InvalidValue:
      return "invalid value";
    case ErrorCode::OutOfLimits:
      return "out of limits";
    case ErrorCode::InvalidModel:
      return "invalid model";
    case ErrorCode::Unreachable:
      return "unreachable";
    case ErrorCode::InCollision:
      return "in collision";
    case ErrorCode::Timeout:
      return "timeout";
    case ErrorCode::Cancelled:
      return "cancelled";
    case ErrorCode::IoError:
      return "I/O error";
    case ErrorCode::Unsupported:
      return "unsupported";
  }
  return "error";
}

namespace {
std::string compose(const std::string& message, const std::string& hint) {
  return hint.empty() ? message : message + " (" + hint + ")";
}
}  // namespace

// Messages quote names and values from files; what() is a C string, so a NUL among them ended the
// message there ("no built-in robot named 'ur5" for "ur5\u0000e"). Control characters are escaped.
Error::Error(ErrorCode code, std::string message, std::string hint)
    : std::runtime_error(compose(printable(message), printable(hint))),
      code_(code),
      message_(printable(message)),
      hint_(printable(hint)) {}

}  // namespace kinetic
