#pragma once
// The expressions of xacro's ${...}: the part of Python that robot descriptions use — numbers,
// strings, booleans, None, lists, dicts, arithmetic (+ - * / // % **), comparisons, and/or/not,
// `a if c else b`, indexing, attribute access on dicts, keyword arguments, the math functions
// xacro puts in scope (pi, sin, radians, sqrt, ...), Python built-ins (len, str, int, float, dict,
// list, range, sum, min, max, sorted, any, all, ...) and string, list and dict methods (upper,
// split, join, replace, format, get, keys, items, ...). Integers are Python's within 64 bits; a
// result beyond is an error ("integer too large"), never a wrap-around. Names are looked up
// through the caller (xacro properties and macro parameters); functions that need the file being
// expanded (xacro.load_yaml, xacro.warning, ...) through the caller's HostCall. Errors throw
// kinetic::Error(ParseError) naming the expression; depth and sizes are bounded (xacro_limits.hpp).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kinetic::xacro {

struct Value {
  enum class Kind { None, Bool, Int, Float, String, List, Dict };
  Kind kind = Kind::None;
  bool boolean = false;
  std::int64_t integer = 0;
  double number = 0.0;
  std::string text;
  std::vector<Value> items;  // List: the items; Dict: the values, in insertion order
  std::vector<Value> keys;   // Dict: the keys, parallel to items
  std::size_t weight = 0;    // List, Dict: about its bytes (8 an item and key, plus theirs)
  int depth = 0;             // lists and dicts inside each other: 0 for a scalar, 1 for [1, 2]

  static Value of_bool(bool b);
  static Value of_int(std::int64_t i);
  static Value of_float(double d);
  static Value of_string(std::string s);
  static Value list(std::vector<Value> items = {});
  static Value dict();

  bool is_number() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  double as_double() const;  // numbers and booleans; throws for others
  bool truthy() const;       // Python's truth value
  std::string str() const;   // Python's str(): 2 -> "2", 0.5 -> "0.5", 1.0 -> "1.0"
  std::string repr() const;  // Python's repr(): strings quoted
  const Value* find(const Value& key) const;  // Dict: the value of a key, nullptr when absent
  void set(Value key, Value value);           // Dict: adds or replaces
  Value& settle();  // also its weight (throws past limits::kMaxValueBytes)  // List, Dict: depth
                    // from the items (throws past limits::kMaxValueNesting)
};

// About the bytes a value holds: a string's length, a list's or dict's weight, 0 for the rest.
std::size_t weight_of(const Value& v);

// Value of a name (a property or parameter), nullopt when it is not defined.
using NameLookup = std::function<std::optional<Value>(const std::string& name)>;
// A function the caller provides (by its dotted name), nullopt when it has none of that name.
using HostCall =
    std::function<std::optional<Value>(const std::string& name, const std::vector<Value>& args)>;

// Evaluates one expression (the text between "${" and "}").
Value evaluate(std::string_view expression, const NameLookup& lookup, const HostCall& host = {});

// A property's text as a value: a number when it reads as one (xacro does the same), else the
// string itself.
Value value_of_text(const std::string& text);

}  // namespace kinetic::xacro
