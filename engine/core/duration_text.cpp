#include "engine/core/duration_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace kinetic {

std::string duration_text(double milliseconds) {
  char text[48];
  if (!std::isfinite(milliseconds)) return "? ms";
  const double ms = std::max(0.0, milliseconds);
  // Each band's format must not round up into the next band's numbers ("1.0 ms" from 0.9996).
  if (ms < 1e-3)
    std::snprintf(text, sizeof text, "%.3f ms", ms);  // (%g would write 5e-05)
  else if (ms < 0.995)
    std::snprintf(text, sizeof text, "%.2g ms", ms);
  else if (ms < 99.95)
    std::snprintf(text, sizeof text, "%.1f ms", ms);
  else if (ms < 999.5)
    std::snprintf(text, sizeof text, "%.0f ms", ms);
  else
    std::snprintf(text, sizeof text, "%.2f s", ms / 1000.0);
  return text;
}

std::string limit_ms_text(double milliseconds) {
  if (!std::isfinite(milliseconds)) return "? ms";
  char text[64];
  // The fewest decimals that read back as the same number: what was written in the job file.
  for (int decimals = 0; decimals <= 9; ++decimals) {
    std::snprintf(text, sizeof text, "%.*f", decimals, milliseconds);
    if (std::strtod(text, nullptr) == milliseconds) return std::string(text) + " ms";
  }
  std::snprintf(text, sizeof text, "%.6g ms", milliseconds);  // finer than that: significant digits
  return text;
}

}  // namespace kinetic
