#pragma once
// The value of a distance, bound or time not known yet, or without limit.
#include <limits>

namespace kinetic {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace kinetic
