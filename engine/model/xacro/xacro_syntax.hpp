#pragma once
// Internal to the xacro expression code: the syntax tree of a ${...} expression, its parser
// (xacro_parser.cpp), the built-in functions and methods (xacro_builtins.cpp) and the helpers
// shared with the values and the evaluator.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/xacro/xacro_expression.hpp"

namespace kinetic::xacro {

[[noreturn]] void fail(const std::string& what);  // Error(ParseError)
const char* kind_name(Value::Kind kind);          // Python's name of a value's type

struct Node;
using NodePtr = std::unique_ptr<Node>;
struct Node {
  // Binary, And, Or and Compare are chains (a + b - c: children a b c, ops + -), evaluated in a
  // loop, so a long sum is no deeper than a short one.
  enum class Type {
    Literal,
    Name,
    Unary,
    Binary,
    Compare,
    And,
    Or,
    Not,
    IfElse,
    Call,
    Method,
    Index,
    List,
    Dict
  };
  Type type;
  Value literal;
  std::string name;              // Name, Call (function name), Method (method name), Unary operator
  std::vector<std::string> ops;  // Binary and Compare: the chain's operators
  std::vector<std::string> keywords;  // Call, Method: per argument, its keyword ("" = positional)
  std::vector<NodePtr> children;      // operands, arguments (Method: the object first), items
};

// The tree of one expression; throws Error(ParseError) on a syntax error or deeper nesting than
// limits::kMaxExpressionNesting.
NodePtr parse_expression(std::string_view expression);

// Integer arithmetic as Python's within 64 bits: an error ("integer too large") beyond.
std::int64_t checked_int(double d,
                         const char* what);  // a float's integer part (int(), floor(), ...)
bool is_int_like(const Value& v);
std::int64_t int_of(const Value& v);

bool equal(const Value& a, const Value& b);
bool compare(const std::string& op, const Value& a, const Value& b);
// Throws when `bytes` exceeds limits::kMaxValueBytes (what: the operation, for the message).
void check_size(std::size_t bytes, const char* what);

// A built-in function (len, dict, radians, math.sin, ...) or a method of a value ('a'.upper(),
// d.get(k)); nullopt when there is none of that name.
struct Arguments {
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> keyword;
};
std::optional<Value> call_builtin(const std::string& name, const Arguments& args);
Value call_method(const Value& self, const std::string& method, const Arguments& args);

}  // namespace kinetic::xacro
