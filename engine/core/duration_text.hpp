#pragma once
// A duration for people to read, in milliseconds or seconds with the digits that matter: plans take
// from tens of microseconds to seconds, and "0.0 ms" for a 40 µs plan reads as nothing happened.
#include <string>

namespace kinetic {

// "0.043 ms", "0.5 ms", "12.5 ms", "250 ms", "1.25 s" (below 1 ms: two significant digits;
// below 100 ms: one decimal; below 1 s: whole milliseconds; else seconds with two decimals).
std::string duration_text(double milliseconds);

// A limit as the user set it, in milliseconds with every digit they gave and no exponent:
// "0.01 ms", "2.5 ms", "5000 ms", "3600000 ms" (a timeout of 0.01 ms must not read "0 ms").
std::string limit_ms_text(double milliseconds);

}  // namespace kinetic
