#pragma once
namespace kinetic {
// The project version, e.g. "0.1.0".
const char* version();
}  // namespace kinetic
