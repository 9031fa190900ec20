#pragma once
// Internal to the xacro expression code: the syntax tree of a ${...} expression, its parser
// (xacro_parser.cpp) and the error helpers shared with the values and the evaluator.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/xacro_expression.hpp"

namespace kinetic::xacro {

[[noreturn]] void fail(const std::string& what);  // Error(ParseError)
const char* kind_name(Value::Kind kind);           // Python's name of a value's type

struct Node;
using NodePtr = std::unique_ptr<Node>;
struct Node {
  enum class Type { Literal, Name, Unary, Binary, Compare, And, Or, Not, IfElse, Call, Index, List };
  Type type;
  Value literal;
  std::string name;                // Name, Call (function name), Unary/Binary operator
  std::vector<std::string> ops;    // Compare: the chain's operators
  std::vector<NodePtr> children;   // operands, arguments, items
};

// The tree of one expression; throws Error(ParseError) on a syntax error.
NodePtr parse_expression(std::string_view expression);

}  // namespace kinetic::xacro
