#pragma once
// The budgets of one xacro expansion (docs/robot-configuration.md, "xacro robot descriptions"): a
// hostile or broken file stops with an error naming the file and line instead of exhausting the
// stack, memory or time.
// Real robot packages stay far below each (the Kinova Gen3 with its gripper: ~1,100 nodes, 23 kB).
#include <cstddef>
#include <string>
#include <string_view>

namespace kinetic::xacro::limits {

constexpr int kMaxExpressionNesting = 100;  // (, [, unary signs, not, calls, indexing in one ${}
constexpr std::size_t kMaxValueBytes =
    1u << 20;  // one value: a string, or a list/dict at 8 bytes an item plus the items'
constexpr std::size_t kMaxExpressionWork = 256u << 20;  // values made while evaluating one ${}
constexpr std::size_t kMaxDictKeys = 10'000;            // keys of one dict (looked up one by one)
constexpr std::size_t kMaxStoredBytes = 256u
                                        << 20;  // values stored in properties and parameters in all
constexpr int kMaxValueNesting = 100;           // lists and dicts inside each other
constexpr int kMaxMacroDepth = 200;             // macro calls and includes inside each other
constexpr int kMaxElementDepth = 1000;          // elements inside each other, macro bodies included
constexpr int kMaxPropertyDepth = 200;          // a property evaluated through another, and so on
constexpr std::size_t kMaxNodes = 500'000;      // XML nodes processed in all
constexpr std::size_t kMaxOutputBytes = 64u << 20;  // text and attributes produced in all: 64 MiB
constexpr std::size_t kMaxFileBytes = 16u << 20;    // one included xacro or YAML file: 16 MiB
constexpr double kMaxSeconds = 30.0;                // wall time of the whole expansion
constexpr std::size_t kQuoteChars = 40;             // input quoted in an error message

// `text` as an error message quotes it: at most kQuoteChars characters, the rest elided with
// its length ("abc…(+9960 characters)").
std::string quote(std::string_view text);
// The same without the quotes ("abc", or "abc…(10000 characters)").
std::string clip(std::string_view text);

}  // namespace kinetic::xacro::limits
