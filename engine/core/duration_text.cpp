#include "engine/core/duration_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kinetic {

std::string duration_text(double milliseconds) {
  char text[48];
  if (!std::isfinite(milliseconds)) return "? ms";
  const double ms = std::max(0.0, milliseconds);
  // Each band's format must not round up into the next band's numbers ("1.0 ms" from 0.9996).
  if (ms < 1e-3) std::snprintf(text, sizeof text, "%.3f ms", ms);  // (%g would write 5e-05)
  else if (ms < 0.995) std::snprintf(text, sizeof text, "%.2g ms", ms);
  else if (ms < 99.95) std::snprintf(text, sizeof text, "%.1f ms", ms);
  else if (ms < 999.5) std::snprintf(text, sizeof text, "%.0f ms", ms);
  else std::snprintf(text, sizeof text, "%.2f s", ms / 1000.0);
  return text;
}

}  // namespace kinetic
