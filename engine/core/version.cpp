#include "engine/core/version.hpp"
namespace kinetic {
const char* version() {
  return KINETIC_VERSION;
}
}  // namespace kinetic
