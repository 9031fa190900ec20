#pragma once
// The slack the motion proofs (grid_check, path_check) keep beyond what a proof needs.

namespace kinetic {

// m: the exact tier's answers at two poses may differ by rounding.
inline constexpr double kRoundingSlack = 1e-6;

}  // namespace kinetic
