#pragma once
// Units the tests write their tolerances in (the engine works in metres and radians).
#include <numbers>

namespace kinetic::test {

constexpr double kMillimetre = 1e-3;                            // m
constexpr double kDegree = std::numbers::pi / 180.0;            // rad
constexpr double kDegreesPerRadian = 180.0 / std::numbers::pi;  // radians to degrees

}  // namespace kinetic::test
