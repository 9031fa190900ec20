// Values of xacro expressions as Python has them: truth, str() and the reading of property texts.
#include "engine/model/xacro/xacro_syntax.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "engine/core/error.hpp"
#include "engine/model/xacro/xacro_limits.hpp"

namespace kinetic::xacro {

Value Value::of_bool(bool b) {
  Value v;
  v.kind = Kind::Bool;
  v.boolean = b;
  return v;
}
Value Value::of_int(std::int64_t i) {
  Value v;
  v.kind = Kind::Int;
  v.integer = i;
  return v;
}
Value Value::of_float(double d) {
  Value v;
  v.kind = Kind::Float;
  v.number = d;
  return v;
}
Value Value::of_string(std::string s) {
  Value v;
  v.kind = Kind::String;
  v.text = std::move(s);
  return v;
}

Value Value::list(std::vector<Value> items) {
  Value v;
  v.kind = Kind::List;
  v.items = std::move(items);
  v.settle();
  return v;
}
Value Value::dict() {
  Value v;
  v.kind = Kind::Dict;
  v.depth = 1;
  return v;
}

// Values are copied, compared and printed recursively: their nesting is bounded like the
// expressions'.
Value& Value::settle() {
  int deepest = 0;
  weight = 0;
  for (const Value& v : items) {
    deepest = std::max(deepest, v.depth);
    weight += 8 + weight_of(v);
  }
  for (const Value& k : keys) {
    deepest = std::max(deepest, k.depth);
    weight += 8 + weight_of(k);
  }
  depth = deepest + 1;
  if (depth > limits::kMaxValueNesting)
    fail("lists and dicts nest deeper than " + std::to_string(limits::kMaxValueNesting) +
         " levels");
  check_size(weight, kind == Kind::Dict ? "a dict" : "a list");
  return *this;
}

const Value* Value::find(const Value& key) const {
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (equal(keys[i], key)) return &items[i];
  return nullptr;
}
void Value::set(Value key, Value value) {
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (equal(keys[i], key)) {
      items[i] = std::move(value);
      settle();
      return;
    }
  if (keys.size() >= limits::kMaxDictKeys)
    fail("a dict of more than " + std::to_string(limits::kMaxDictKeys) +
         " keys, beyond xacro's budget");
  depth = std::max({depth, 1, key.depth + 1, value.depth + 1});
  if (depth > limits::kMaxValueNesting)
    fail("lists and dicts nest deeper than " + std::to_string(limits::kMaxValueNesting) +
         " levels");
  weight += 16 + weight_of(key) + weight_of(value);
  check_size(weight, "a dict");
  keys.push_back(std::move(key));
  items.push_back(std::move(value));
}

namespace {
// The first kQuoteChars bytes of a text, not cutting a UTF-8 character in two.
std::string_view head(std::string_view text) {
  std::size_t cut = limits::kQuoteChars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut);
}
}  // namespace

std::string limits::clip(std::string_view text) {
  if (text.size() <= kQuoteChars) return std::string(text);
  return std::string(head(text)) + "…(" + std::to_string(text.size()) + " characters)";
}

std::string limits::quote(std::string_view text) {
  if (text.size() <= kQuoteChars) return "'" + std::string(text) + "'";
  return "'" + std::string(head(text)) + "…' (" + std::to_string(text.size()) + " characters)";
}

void fail(const std::string& what) {
  throw Error(ErrorCode::ParseError, what);
}

const char* kind_name(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::None:
      return "None";
    case Value::Kind::Bool:
      return "bool";
    case Value::Kind::Int:
      return "int";
    case Value::Kind::Float:
      return "float";
    case Value::Kind::String:
      return "str";
    case Value::Kind::List:
      return "list";
    case Value::Kind::Dict:
      return "dict";
  }
  return "?";
}

namespace {
// Python's repr of a float: the shortest text that reads back, scientific outside [1e-4, 1e16).
std::string float_text(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buffer[64];
  const double magnitude = std::fabs(d);
  const bool scientific = magnitude != 0.0 && (magnitude < 1e-4 || magnitude >= 1e16);
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, d,
                    scientific ? std::chars_format::scientific : std::chars_format::fixed);
  std::string text(buffer, result.ptr);
  if (scientific) {
    // "1e-05" as Python writes it: at least two exponent digits.
    // (Built by appending: GCC 12's -Wrestrict misreads insert() at -O3.)
    const auto e = text.find('e');
    std::size_t digits = e + 1;
    const char sign = text[digits] == '-' ? '-' : '+';
    if (text[digits] == '-' || text[digits] == '+') ++digits;
    std::string out = text.substr(0, e);
    out += 'e';
    out += sign;
    if (text.size() - digits < 2) out += '0';
    out.append(text, digits, std::string::npos);
    return out;
  }
  if (text.find('.') == std::string::npos) text += ".0";
  return text;
}
}  // namespace

double Value::as_double() const {
  switch (kind) {
    case Kind::Bool:
      return boolean ? 1.0 : 0.0;
    case Kind::Int:
      return static_cast<double>(integer);
    case Kind::Float:
      return number;
    default:
      fail(std::string("expected a number, got ") + kind_name(kind) + " '" + str() + "'");
  }
}

bool Value::truthy() const {
  switch (kind) {
    case Kind::None:
      return false;
    case Kind::Bool:
      return boolean;
    case Kind::Int:
      return integer != 0;
    case Kind::Float:
      return number != 0.0;
    case Kind::String:
      return !text.empty();
    case Kind::List:
    case Kind::Dict:
      return !items.empty();
  }
  return false;
}

std::string Value::str() const {
  switch (kind) {
    case Kind::None:
      return "None";
    case Kind::Bool:
      return boolean ? "True" : "False";
    case Kind::Int:
      return std::to_string(integer);
    case Kind::Float:
      return float_text(number);
    case Kind::String:
      return text;
    case Kind::List: {
      std::string out = "[";
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        out += items[i].repr();
        check_size(out.size(), "str() of a list");
      }
      return out + "]";
    }
    case Kind::Dict: {
      std::string out = "{";
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        out += keys[i].repr() + ": " + items[i].repr();
        check_size(out.size(), "str() of a dict");
      }
      return out + "}";
    }
  }
  return {};
}

std::string Value::repr() const {
  if (kind != Kind::String) return str();
  const char quote_char =
      text.find('\'') != std::string::npos && text.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, quote_char);
  for (const char c : text) {
    if (c == quote_char || c == '\\') out += '\\';
    if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out + quote_char;
}

Value value_of_text(const std::string& text) {
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'')
    return Value::of_string(text.substr(1, text.size() - 2));
  // Python ignores underscores in number literals; xacro keeps such texts as strings.
  if (text.empty() || text.find('_') != std::string::npos) return Value::of_string(text);
  std::size_t begin = text.find_first_not_of(" \t\n\r"), end = text.find_last_not_of(" \t\n\r");
  if (begin == std::string::npos) return Value::of_string(text);
  const std::string trimmed = text.substr(begin, end - begin + 1);
  const char* first = trimmed.data();
  const char* last = first + trimmed.size();
  const char* digits = (*first == '+') ? first + 1 : first;
  std::int64_t i = 0;
  if (auto r = std::from_chars(digits, last, i); r.ec == std::errc() && r.ptr == last)
    return Value::of_int(i);
  double d = 0.0;
  if (auto r = std::from_chars(digits, last, d); r.ec == std::errc() && r.ptr == last)
    return Value::of_float(d);
  if (trimmed == "true" || trimmed == "True") return Value::of_bool(true);
  if (trimmed == "false" || trimmed == "False") return Value::of_bool(false);
  return Value::of_string(text);
}

}  // namespace kinetic::xacro
