#include "engine/core/error.hpp"

namespace kinetic {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::FileNotFound: return "file not found";
    case ErrorCode::ParseError: return "parse error";
    case ErrorCode::UnknownRobot: return "unknown robot";
    case ErrorCode::MissingLink: return "missing link";
    case ErrorCode::MissingJoint: return "missing joint";
    case ErrorCode::MissingMesh: return "missing mesh";
    case ErrorCode::DimensionMismatch: return "dimension mismatch";
    case ErrorCode::InvalidValue: return "invalid value";
    case ErrorCode::OutOfLimits: return "out of limits";
    case ErrorCode::InvalidModel: return "invalid model";
    case ErrorCode::Unreachable: return "unreachable";
    case ErrorCode::InCollision: return "in collision";
    case ErrorCode::Timeout: return "timeout";
    case ErrorCode::Cancelled: return "cancelled";
    case ErrorCode::IoError: return "I/O error";
    case ErrorCode::Unsupported: return "unsupported";
  }
  return "error";
}

namespace {
std::string compose(const std::string& message, const std::string& hint) {
  return hint.empty() ? message : message + " (" + hint + ")";
}
}  // namespace

Error::Error(ErrorCode code, std::string message, std::string hint)
    : std::runtime_error(compose(message, hint)),
      code_(code),
      message_(std::move(message)),
      hint_(std::move(hint)) {}

}  // namespace kinetic
