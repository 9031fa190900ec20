// The functions xacro puts in scope of ${...} (math's, Python's built-ins that robot packages use)
// and the methods of strings, lists and dicts.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

#include "engine/core/error.hpp"
#include "engine/model/xacro/xacro_limits.hpp"
#include "engine/model/xacro/xacro_syntax.hpp"
#include "engine/model/xacro/xacro_yaml.hpp"

namespace kinetic::xacro {

namespace {

void need(const std::string& name, const Arguments& args, std::size_t min, std::size_t max) {
  if (!args.keyword.empty()) fail(name + "() takes no keyword arguments here");
  const std::size_t n = args.positional.size();
  if (n < min || n > max)
    fail(name + "() takes " +
         (min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max)) +
         " argument" + (max == 1 ? "" : "s") + ", got " + std::to_string(n));
}

// The items of a list, a dict (its keys) or a string (its characters), for list(), sum(), ...
std::vector<Value> items_of(const Value& v, const std::string& name) {
  switch (v.kind) {
    case Value::Kind::List:
      return v.items;
    case Value::Kind::Dict:
      return v.keys;
    case Value::Kind::String: {
      std::vector<Value> out;
      for (const char c : v.text) out.push_back(Value::of_string(std::string(1, c)));
      return out;
    }
    default:
      fail(name + "(): a " + kind_name(v.kind) + " is not iterable");
  }
}

Value number_of(const Value& v, const std::string& name) {
  if (v.kind != Value::Kind::String) {
    if (!v.is_number()) fail(name + "() of a " + kind_name(v.kind));
    return v;
  }
  const Value parsed = value_of_text(v.text);
  if (!parsed.is_number() || parsed.kind == Value::Kind::Bool)
    fail(name + "() cannot read " + limits::quote(v.text) + " as a number");
  return parsed;
}

Value sorted_values(std::vector<Value> items, bool reverse) {
  std::stable_sort(items.begin(), items.end(), [&](const Value& a, const Value& b) {
    return compare(reverse ? ">" : "<", a, b);
  });
  return Value::list(std::move(items));
}

// str.format: {} {0} {name} with an optional :spec of the forms .Nf, .Ne, .Ng, d.
std::string format(const std::string& pattern, const Arguments& args) {
  std::string out;
  std::size_t next_auto = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if ((c == '{' || c == '}') && i + 1 < pattern.size() && pattern[i + 1] == c) {
      out += c;
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    const std::size_t close = pattern.find('}', i);
    if (close == std::string::npos) fail("format(): a '{' without its '}'");
    std::string field = pattern.substr(i + 1, close - i - 1), spec;
    if (const auto colon = field.find(':'); colon != std::string::npos) {
      spec = field.substr(colon + 1);
      field.erase(colon);
    }
    const Value* value = nullptr;
    if (field.empty() ||
        std::all_of(field.begin(), field.end(), [](char d) { return d >= '0' && d <= '9'; })) {
      std::size_t k = next_auto;
      if (field.empty())
        ++next_auto;
      else if (std::from_chars(field.data(), field.data() + field.size(), k).ec != std::errc())
        fail("format(): no argument " + limits::quote(field));
      if (k >= args.positional.size()) fail("format(): no argument " + std::to_string(k));
      value = &args.positional[k];
    } else {
      for (const auto& [key, v] : args.keyword)
        if (key == field) value = &v;
      if (!value) fail("format(): no keyword argument " + limits::quote(field));
    }
    if (spec.empty()) {
      out += value->str();
    } else {
      const char type = spec.back();
      if (std::string_view("fegd").find(type) == std::string_view::npos || spec.size() > 6)
        fail("format(): the format spec " + limits::quote(spec) +
             " is not supported here (use .Nf, .Ne, .Ng or d)");
      char buffer[128];
      if (type == 'd') {
        if (!is_int_like(*value)) fail("format(): {:d} needs an integer");
        std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(int_of(*value)));
      } else {
        const std::string printf_spec = "%" + spec.substr(0, spec.size() - 1) + type;
        const std::string precision = spec.substr(0, spec.size() - 1);
        if (!precision.empty() && (precision[0] != '.' || precision.size() > 3 ||
                                   !std::all_of(precision.begin() + 1, precision.end(),
                                                [](char d) { return d >= '0' && d <= '9'; })))
          fail("format(): the format spec " + limits::quote(spec) +
               " is not supported here (use .Nf, .Ne, .Ng or d)");
        std::snprintf(buffer, sizeof buffer, printf_spec.c_str(), value->as_double());
      }
      out += buffer;
    }
    check_size(out.size(), "format()");
    i = close;
  }
  return out;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string strip(const std::string& text, const Arguments& args, bool left, bool right) {
  const std::string chars =
      args.positional.empty() ? std::string(" \t\n\r\f\v") : args.positional[0].str();
  std::size_t begin = 0, end = text.size();
  while (left && begin < end && chars.find(text[begin]) != std::string::npos) ++begin;
  while (right && end > begin && chars.find(text[end - 1]) != std::string::npos) --end;
  return text.substr(begin, end - begin);
}

Value split(const std::string& text, const Arguments& args) {
  Value out = Value::list();
  if (args.positional.empty() || args.positional[0].kind == Value::Kind::None) {
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && is_space(text[i])) ++i;
      const std::size_t start = i;
      while (i < text.size() && !is_space(text[i])) ++i;
      if (i > start) out.items.push_back(Value::of_string(text.substr(start, i - start)));
    }
    return out;
  }
  const std::string sep = args.positional[0].str();
  if (sep.empty()) fail("split(): empty separator");
  for (std::size_t start = 0;;) {
    const std::size_t at = text.find(sep, start);
    out.items.push_back(Value::of_string(
        text.substr(start, at == std::string::npos ? std::string::npos : at - start)));
    if (at == std::string::npos) return out;
    start = at + sep.size();
  }
}

Value string_method(const std::string& text, const std::string& m, const Arguments& args) {
  const auto arg_text = [&](std::size_t i) {
    if (args.positional[i].kind != Value::Kind::String) fail(m + "() needs a string argument");
    return args.positional[i].text;
  };
  if (m == "upper" || m == "lower") {
    need(m, args, 0, 0);
    std::string out = text;
    for (char& c : out)
      c = static_cast<char>(m == "upper" ? std::toupper(static_cast<unsigned char>(c))
                                         : std::tolower(static_cast<unsigned char>(c)));
    return Value::of_string(out);
  }
  if (m == "capitalize") {
    need(m, args, 0, 0);
    std::string out = text;
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<char>(i == 0 ? std::toupper(static_cast<unsigned char>(out[i]))
                                        : std::tolower(static_cast<unsigned char>(out[i])));
    return Value::of_string(out);
  }
  if (m == "strip" || m == "lstrip" || m == "rstrip") {
    need(m, args, 0, 1);
    return Value::of_string(strip(text, args, m != "rstrip", m != "lstrip"));
  }
  if (m == "split") {
    need(m, args, 0, 1);
    return split(text, args);
  }
  if (m == "join") {
    need(m, args, 1, 1);
    std::string out;
    const std::vector<Value> parts = items_of(args.positional[0], "join");
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].kind != Value::Kind::String)
        fail("join(): item " + std::to_string(i) + " is a " + kind_name(parts[i].kind) +
             ", not a str");
      out += (i ? text : "") + parts[i].text;
      check_size(out.size(), "join()");
    }
    return Value::of_string(out);
  }
  if (m == "replace") {
    need(m, args, 2, 2);
    const std::string from = arg_text(0), to = arg_text(1);
    if (from.empty()) fail("replace(): an empty pattern is not supported here");
    std::string out;
    for (std::size_t start = 0;;) {
      const std::size_t at = text.find(from, start);
      out.append(text, start, at == std::string::npos ? std::string::npos : at - start);
      check_size(out.size(), "replace()");
      if (at == std::string::npos) return Value::of_string(out);
      out += to;
      start = at + from.size();
    }
  }
  if (m == "startswith" || m == "endswith") {
    need(m, args, 1, 1);
    const std::string s = arg_text(0);
    const bool yes = s.size() <= text.size() &&
                     (m == "startswith" ? text.compare(0, s.size(), s) == 0
                                        : text.compare(text.size() - s.size(), s.size(), s) == 0);
    return Value::of_bool(yes);
  }
  if (m == "find" || m == "count") {
    need(m, args, 1, 1);
    const std::string s = arg_text(0);
    if (m == "find") {
      const auto at = text.find(s);
      return Value::of_int(at == std::string::npos ? -1 : static_cast<std::int64_t>(at));
    }
    if (s.empty()) return Value::of_int(static_cast<std::int64_t>(text.size() + 1));
    std::int64_t n = 0;
    for (std::size_t at = text.find(s); at != std::string::npos; at = text.find(s, at + s.size()))
      ++n;
    return Value::of_int(n);
  }
  if (m == "isdigit" || m == "isalpha") {
    need(m, args, 0, 0);
    return Value::of_bool(!text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
      return m == "isdigit" ? std::isdigit(static_cast<unsigned char>(c)) != 0
                            : std::isalpha(static_cast<unsigned char>(c)) != 0;
    }));
  }
  if (m == "format") return Value::of_string(format(text, args));
  fail("a str has no method " + limits::quote(m));
}

}  // namespace

Value call_method(const Value& self, const std::string& m, const Arguments& args) {
  if (self.kind == Value::Kind::String) return string_method(self.text, m, args);
  if (self.kind == Value::Kind::Dict) {
    if (m == "get") {
      need(m, args, 1, 2);
      if (const Value* v = self.find(args.positional[0])) return *v;
      return args.positional.size() == 2 ? args.positional[1] : Value{};
    }
    if (m == "keys") return need(m, args, 0, 0), Value::list(self.keys);
    if (m == "values") return need(m, args, 0, 0), Value::list(self.items);
    if (m == "items") {
      need(m, args, 0, 0);
      Value out = Value::list();
      for (std::size_t i = 0; i < self.keys.size(); ++i)
        out.items.push_back(Value::list({self.keys[i], self.items[i]}));
      return out.settle();
    }
    if (m == "copy") return need(m, args, 0, 0), self;
    fail("a dict has no method " + limits::quote(m) + " here (get, keys, values, items, copy)");
  }
  if (self.kind == Value::Kind::List) {
    if (m == "index" || m == "count") {
      need(m, args, 1, 1);
      std::int64_t n = 0;
      for (std::size_t i = 0; i < self.items.size(); ++i)
        if (equal(self.items[i], args.positional[0])) {
          if (m == "index") return Value::of_int(static_cast<std::int64_t>(i));
          ++n;
        }
      if (m == "index")
        fail("index(): " + limits::quote(args.positional[0].repr()) + " is not in the list");
      return Value::of_int(n);
    }
    if (m == "copy") return need(m, args, 0, 0), self;
    fail("a list has no method " + limits::quote(m) + " here (index, count, copy)");
  }
  fail(std::string("a ") + kind_name(self.kind) + " has no method " + limits::quote(m));
}

namespace {

// math's functions, called as "math.sin" or "sin".
std::optional<Value> math_function(const std::string& name, const Arguments& args) {
  const std::vector<Value>& a = args.positional;
  using Unary = double (*)(double);
  static const std::map<std::string, Unary> kUnary = {
      {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},
      {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},
      {"atan", [](double x) { return std::atan(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},
      {"cosh", [](double x) { return std::cosh(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"exp", [](double x) { return std::exp(x); }},
      {"log10", [](double x) { return std::log10(x); }},
      {"log2", [](double x) { return std::log2(x); }},
      {"fabs", [](double x) { return std::fabs(x); }},
      {"sqrt",
       [](double x) {
         if (x < 0) fail("sqrt() of a negative number");
         return std::sqrt(x);
       }},
      {"radians", [](double x) { return x * std::numbers::pi / 180.0; }},
      {"degrees", [](double x) { return x * 180.0 / std::numbers::pi; }},
  };
  const std::string bare = name.rfind("math.", 0) == 0 ? name.substr(5) : name;
  if (auto it = kUnary.find(bare); it != kUnary.end()) {
    need(name, args, 1, 1);
    return Value::of_float(it->second(a[0].as_double()));
  }
  if (bare == "log") {
    need(name, args, 1, 2);
    if (a.size() == 2)
      return Value::of_float(std::log(a[0].as_double()) / std::log(a[1].as_double()));
    return Value::of_float(std::log(a[0].as_double()));
  }
  if (bare == "atan2" || bare == "pow" || bare == "fmod" || bare == "hypot" || bare == "copysign") {
    need(name, args, 2, 2);
    const double x = a[0].as_double(), y = a[1].as_double();
    return Value::of_float(bare == "atan2"   ? std::atan2(x, y)
                           : bare == "pow"   ? std::pow(x, y)
                           : bare == "fmod"  ? std::fmod(x, y)
                           : bare == "hypot" ? std::hypot(x, y)
                                             : std::copysign(x, y));
  }
  if (bare == "floor" || bare == "ceil" || bare == "trunc") {
    need(name, args, 1, 1);
    if (is_int_like(a[0])) return Value::of_int(int_of(a[0]));
    const double x = a[0].as_double();
    return Value::of_int(checked_int(bare == "floor"  ? std::floor(x)
                                     : bare == "ceil" ? std::ceil(x)
                                                      : std::trunc(x),
                                     bare.c_str()));
  }
  if (bare == "isnan" || bare == "isinf") {
    need(name, args, 1, 1);
    return Value::of_bool(bare == "isnan" ? std::isnan(a[0].as_double())
                                          : std::isinf(a[0].as_double()));
  }
  return std::nullopt;
}

// Python's built-ins on numbers: abs, round, int, float.
std::optional<Value> number_builtin(const std::string& name, const Arguments& args) {
  const std::vector<Value>& a = args.positional;
  if (name == "abs") {
    need(name, args, 1, 1);
    if (!is_int_like(a[0])) return Value::of_float(std::fabs(a[0].as_double()));
    if (int_of(a[0]) == std::numeric_limits<std::int64_t>::min())
      fail("abs(): integer too large (the result does not fit in 64 bits)");
    return Value::of_int(std::llabs(int_of(a[0])));
  }
  if (name == "round") {
    need(name, args, 1, 2);
    if (a.size() == 2 && a[1].kind != Value::Kind::None) {
      if (is_int_like(a[0])) return Value::of_int(int_of(a[0]));
      const double scale = std::pow(10.0, a[1].as_double());
      return Value::of_float(std::nearbyint(a[0].as_double() * scale) / scale);
    }
    if (is_int_like(a[0])) return Value::of_int(int_of(a[0]));
    return Value::of_int(checked_int(std::nearbyint(a[0].as_double()), "round()"));  // half to even
  }
  if (name == "int") {
    need(name, args, 1, 1);
    const Value v = number_of(a[0], name);
    return Value::of_int(is_int_like(v) ? int_of(v)
                                        : checked_int(std::trunc(v.as_double()), "int()"));
  }
  if (name == "float") {
    need(name, args, 1, 1);
    if (a[0].kind == Value::Kind::String) {
      const std::string t = strip(a[0].text, {}, true, true);
      if (t == "inf" || t == "+inf") return Value::of_float(HUGE_VAL);
      if (t == "-inf") return Value::of_float(-HUGE_VAL);
      if (t == "nan") return Value::of_float(std::nan(""));
    }
    return Value::of_float(number_of(a[0], name).as_double());
  }
  return std::nullopt;
}

// dict(), dict(a dict), dict(pairs), each with keyword arguments added.
Value dict_of(const std::string& name, const Arguments& args) {
  const std::vector<Value>& a = args.positional;
  if (a.size() > 1) fail("dict() takes at most one positional argument");
  Value out = Value::dict();
  if (a.size() == 1) {
    if (a[0].kind == Value::Kind::Dict) {
      out = a[0];
    } else {
      for (const Value& pair : items_of(a[0], name)) {
        if (pair.kind != Value::Kind::List || pair.items.size() != 2)
          fail("dict(): each item must be a (key, value) pair");
        out.set(pair.items[0], pair.items[1]);
      }
    }
  }
  for (const auto& [key, value] : args.keyword) out.set(Value::of_string(key), value);
  return out;
}

// Python's built-in conversions: str, repr, bool, len, list, tuple, dict.
std::optional<Value> conversion_builtin(const std::string& name, const Arguments& args) {
  const std::vector<Value>& a = args.positional;
  if (name == "str" || name == "repr") {
    need(name, args, 0, 1);
    if (a.empty()) return Value::of_string("");
    return Value::of_string(name == "str" ? a[0].str() : a[0].repr());
  }
  if (name == "bool") {
    need(name, args, 0, 1);
    return Value::of_bool(!a.empty() && a[0].truthy());
  }
  if (name == "len") {
    need(name, args, 1, 1);
    if (a[0].kind == Value::Kind::String)
      return Value::of_int(static_cast<std::int64_t>(a[0].text.size()));
    if (a[0].kind == Value::Kind::List || a[0].kind == Value::Kind::Dict)
      return Value::of_int(static_cast<std::int64_t>(a[0].items.size()));
    fail(std::string("len() of a ") + kind_name(a[0].kind));
  }
  if (name == "list" || name == "tuple") {
    need(name, args, 0, 1);
    return Value::list(a.empty() ? std::vector<Value>{} : items_of(a[0], name));
  }
  if (name == "dict") return dict_of(name, args);
  return std::nullopt;
}

// range(stop), range(start, stop[, step]), bounded by the xacro size limit.
Value range_of(const std::string& name, const Arguments& args) {
  const std::vector<Value>& a = args.positional;
  need(name, args, 1, 3);
  for (const Value& v : a)
    if (!is_int_like(v)) fail("range() takes integers");
  const std::int64_t start = a.size() > 1 ? int_of(a[0]) : 0;
  const std::int64_t stop = a.size() > 1 ? int_of(a[1]) : int_of(a[0]);
  const std::int64_t step = a.size() > 2 ? int_of(a[2]) : 1;
  if (step == 0) fail("range() step must not be zero");
  Value out = Value::list();
  for (std::int64_t i = start; step > 0 ? i < stop : i > stop;) {
    out.items.push_back(Value::of_int(i));
    check_size(8 * out.items.size(), "range()");
    if (__builtin_add_overflow(i, step, &i)) break;
  }
  return out;
}

// Python's built-ins that make a list: range, sorted, reversed, enumerate, zip.
std::optional<Value> sequence_builtin(const std::string& name, const Arguments& args) {
  const std::vector<Value>& a = args.positional;
  if (name == "range") return range_of(name, args);
  if (name == "sorted") {
    if (a.size() != 1) fail("sorted() takes one positional argument");
    bool reverse = false;
    for (const auto& [key, value] : args.keyword) {
      if (key != "reverse") fail("sorted(): only the keyword reverse= is supported here");
      reverse = value.truthy();
    }
    return sorted_values(items_of(a[0], name), reverse);
  }
  if (name == "reversed") {
    need(name, args, 1, 1);
    std::vector<Value> items = items_of(a[0], name);
    std::reverse(items.begin(), items.end());
    return Value::list(std::move(items));
  }
  if (name == "enumerate" || name == "zip") {
    Value out = Value::list();
    if (name == "enumerate") {
      need(name, args, 1, 1);
      std::int64_t i = 0;
      for (const Value& v : items_of(a[0], name))
        out.items.push_back(Value::list({Value::of_int(i++), v}));
      return out.settle();
    }
    need(name, args, 2, 2);
    const std::vector<Value> x = items_of(a[0], name), y = items_of(a[1], name);
    for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i)
      out.items.push_back(Value::list({x[i], y[i]}));
    return out.settle();
  }
  return std::nullopt;
}

// Python's built-ins that fold a list to one value: min, max, sum, any, all.
std::optional<Value> reduction_builtin(const std::string& name, const Arguments& args) {
  const std::vector<Value>& a = args.positional;
  if (name == "min" || name == "max") {
    const std::vector<Value> items = a.size() == 1 ? items_of(a[0], name) : a;
    if (items.empty()) fail(name + "() needs at least one value");
    Value best = items[0];
    for (const Value& v : items)
      if (compare(name == "min" ? "<" : ">", v, best)) best = v;
    return best;
  }
  if (name == "sum") {
    need(name, args, 1, 2);
    Value total = a.size() == 2 ? a[1] : Value::of_int(0);
    for (const Value& v : items_of(a[0], name)) {
      if (!v.is_number() || !total.is_number()) fail("sum() adds numbers only");
      std::int64_t r = 0;
      if (is_int_like(v) && is_int_like(total) &&
          !__builtin_add_overflow(int_of(total), int_of(v), &r))
        total = Value::of_int(r);
      else if (is_int_like(v) && is_int_like(total))
        fail("sum(): integer too large (the result does not fit in 64 bits)");
      else
        total = Value::of_float(total.as_double() + v.as_double());
    }
    return total;
  }
  if (name == "any" || name == "all") {
    need(name, args, 1, 1);
    for (const Value& v : items_of(a[0], name))
      if (v.truthy() == (name == "any")) return Value::of_bool(name == "any");
    return Value::of_bool(name == "all");
  }
  return std::nullopt;
}

}  // namespace

// The families answer disjoint names, so the order they are asked in does not matter.
std::optional<Value> call_builtin(const std::string& name, const Arguments& args) {
  if (auto v = math_function(name, args)) return v;
  if (auto v = number_builtin(name, args)) return v;
  if (auto v = conversion_builtin(name, args)) return v;
  if (auto v = sequence_builtin(name, args)) return v;
  if (auto v = reduction_builtin(name, args)) return v;
  if (name == "xacro.load_yaml" || name == "load_yaml") {
    need(name, args, 1, 1);
    return load_yaml_file(args.positional[0].str());
  }
  return std::nullopt;
}

}  // namespace kinetic::xacro
