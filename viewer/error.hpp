#pragma once
// The viewer's own error type. The viewer is engine-free, so it does not use kinetic::Error; the
// app catches both (both derive from std::runtime_error) and shows the message.
#include <stdexcept>
#include <string>

namespace kinetic::viewer {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace kinetic::viewer
