#pragma once
// The expressions of xacro's ${...}: the part of Python that robot descriptions use — numbers,
// strings, booleans, lists, arithmetic (+ - * / // % **), comparisons, and/or/not, `a if c else b`,
// indexing, and the math functions xacro puts in scope (pi, sin, radians, sqrt, ...). Names are
// looked up through the caller (xacro properties and macro parameters). Errors throw
// kinetic::Error(ParseError) naming the expression.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kinetic::xacro {

struct Value {
  enum class Kind { None, Bool, Int, Float, String, List };
  Kind kind = Kind::None;
  bool boolean = false;
  std::int64_t integer = 0;
  double number = 0.0;
  std::string text;
  std::vector<Value> items;

  static Value of_bool(bool b);
  static Value of_int(std::int64_t i);
  static Value of_float(double d);
  static Value of_string(std::string s);

  bool is_number() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  double as_double() const;  // numbers and booleans; throws for others
  bool truthy() const;       // Python's truth value
  std::string str() const;   // Python's str(): 2 -> "2", 0.5 -> "0.5", 1.0 -> "1.0"
};

// Value of a name (a property or parameter), nullopt when it is not defined.
using NameLookup = std::function<std::optional<Value>(const std::string& name)>;

// Evaluates one expression (the text between "${" and "}").
Value evaluate(std::string_view expression, const NameLookup& lookup);

// A property's text as a value: a number when it reads as one (xacro does the same), else the
// string itself.
Value value_of_text(const std::string& text);

}  // namespace kinetic::xacro
