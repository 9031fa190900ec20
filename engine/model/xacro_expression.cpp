// Evaluation of a ${...} tree: arithmetic, comparisons and the functions xacro puts in scope.
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

#include "engine/core/error.hpp"
#include "engine/model/xacro_syntax.hpp"

namespace kinetic::xacro {

namespace {

bool is_int_like(const Value& v) { return v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool; }
std::int64_t int_of(const Value& v) { return v.kind == Value::Kind::Bool ? (v.boolean ? 1 : 0) : v.integer; }

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Value arithmetic(const std::string& op, const Value& a, const Value& b) {
  if (op == "+" && a.kind == Value::Kind::String && b.kind == Value::Kind::String) return Value::of_string(a.text + b.text);
  if (op == "+" && a.kind == Value::Kind::List && b.kind == Value::Kind::List) {
    Value v = a;
    v.items.insert(v.items.end(), b.items.begin(), b.items.end());
    return v;
  }
  if (op == "*" && a.kind == Value::Kind::String && is_int_like(b)) {
    std::string out;
    for (std::int64_t i = 0; i < int_of(b); ++i) out += a.text;
    return Value::of_string(out);
  }
  if (op == "%" && a.kind == Value::Kind::String) fail("'%' string formatting is not supported in xacro expressions here");
  if (!a.is_number() || !b.is_number())
    fail(std::string("unsupported operand types for ") + op + ": " + kind_name(a.kind) + " '" + a.str() + "' and " +
         kind_name(b.kind) + " '" + b.str() + "'");
  const bool ints = is_int_like(a) && is_int_like(b);
  if (ints && op != "/" && op != "**") {
    const std::int64_t x = int_of(a), y = int_of(b);
    if (op == "+") return Value::of_int(x + y);
    if (op == "-") return Value::of_int(x - y);
    if (op == "*") return Value::of_int(x * y);
    if (y == 0) fail("division by zero");
    if (op == "//") return Value::of_int(floor_div(x, y));
    if (op == "%") return Value::of_int(x - floor_div(x, y) * y);
  }
  const double x = a.as_double(), y = b.as_double();
  if (op == "+") return Value::of_float(x + y);
  if (op == "-") return Value::of_float(x - y);
  if (op == "*") return Value::of_float(x * y);
  if (op == "**") {
    if (ints && int_of(b) >= 0) return Value::of_int(static_cast<std::int64_t>(std::llround(std::pow(x, y))));
    return Value::of_float(std::pow(x, y));
  }
  if (y == 0.0) fail("division by zero");
  if (op == "/") return Value::of_float(x / y);
  if (op == "//") return Value::of_float(std::floor(x / y));
  return Value::of_float(x - std::floor(x / y) * y);  // %
}

bool equal(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) return a.as_double() == b.as_double();
  if (a.kind != b.kind) return false;
  if (a.kind == Value::Kind::String) return a.text == b.text;
  if (a.kind == Value::Kind::None) return true;
  if (a.items.size() != b.items.size()) return false;
  for (std::size_t i = 0; i < a.items.size(); ++i)
    if (!equal(a.items[i], b.items[i])) return false;
  return true;
}

bool compare(const std::string& op, const Value& a, const Value& b) {
  if (op == "==") return equal(a, b);
  if (op == "!=") return !equal(a, b);
  if (op == "in" || op == "not in") {
    bool found = false;
    if (b.kind == Value::Kind::String && a.kind == Value::Kind::String) found = b.text.find(a.text) != std::string::npos;
    else if (b.kind == Value::Kind::List)
      for (const Value& item : b.items) found = found || equal(a, item);
    else fail(std::string("'in' needs a string or a list on its right, got ") + kind_name(b.kind));
    return op == "in" ? found : !found;
  }
  int order;
  if (a.is_number() && b.is_number()) order = a.as_double() < b.as_double() ? -1 : a.as_double() > b.as_double() ? 1 : 0;
  else if (a.kind == Value::Kind::String && b.kind == Value::Kind::String) order = a.text.compare(b.text);
  else fail(std::string("cannot order ") + kind_name(a.kind) + " and " + kind_name(b.kind));
  if (op == "<") return order < 0;
  if (op == ">") return order > 0;
  if (op == "<=") return order <= 0;
  return order >= 0;
}

Value call(const std::string& name, const std::vector<Value>& args) {
  const auto need = [&](std::size_t n) {
    if (args.size() != n) fail(name + "() takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s"));
  };
  using Unary = double (*)(double);
  static const std::map<std::string, Unary> kUnary = {
      {"sin", [](double x) { return std::sin(x); }},     {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},     {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},   {"atan", [](double x) { return std::atan(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},   {"cosh", [](double x) { return std::cosh(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},   {"exp", [](double x) { return std::exp(x); }},
      {"log10", [](double x) { return std::log10(x); }}, {"fabs", [](double x) { return std::fabs(x); }},
      {"sqrt", [](double x) {
         if (x < 0) fail("sqrt() of a negative number");
         return std::sqrt(x);
       }},
      {"radians", [](double x) { return x * std::numbers::pi / 180.0; }},
      {"degrees", [](double x) { return x * 180.0 / std::numbers::pi; }},
  };
  const std::string bare = name.rfind("math.", 0) == 0 ? name.substr(5) : name;
  if (auto it = kUnary.find(bare); it != kUnary.end()) {
    need(1);
    return Value::of_float(it->second(args[0].as_double()));
  }
  if (bare == "log") {
    if (args.size() == 2) return Value::of_float(std::log(args[0].as_double()) / std::log(args[1].as_double()));
    need(1);
    return Value::of_float(std::log(args[0].as_double()));
  }
  if (bare == "atan2" || bare == "pow" || bare == "fmod" || bare == "hypot") {
    need(2);
    const double x = args[0].as_double(), y = args[1].as_double();
    return Value::of_float(bare == "atan2" ? std::atan2(x, y) : bare == "pow" ? std::pow(x, y) : bare == "fmod" ? std::fmod(x, y) : std::hypot(x, y));
  }
  if (bare == "floor" || bare == "ceil") {
    need(1);
    const double x = args[0].as_double();
    return Value::of_int(static_cast<std::int64_t>(bare == "floor" ? std::floor(x) : std::ceil(x)));
  }
  if (name == "abs") {
    need(1);
    return is_int_like(args[0]) ? Value::of_int(std::llabs(int_of(args[0]))) : Value::of_float(std::fabs(args[0].as_double()));
  }
  if (name == "min" || name == "max") {
    const std::vector<Value>& items = args.size() == 1 && args[0].kind == Value::Kind::List ? args[0].items : args;
    if (items.empty()) fail(name + "() needs at least one value");
    Value best = items[0];
    for (const Value& v : items)
      if (compare(name == "min" ? "<" : ">", v, best)) best = v;
    return best;
  }
  if (name == "round") {
    if (args.size() == 2) {
      const double scale = std::pow(10.0, args[1].as_double());
      return Value::of_float(std::nearbyint(args[0].as_double() * scale) / scale);
    }
    need(1);
    return Value::of_int(static_cast<std::int64_t>(std::nearbyint(args[0].as_double())));  // half to even
  }
  if (name == "int" || name == "float") {
    need(1);
    double d;
    if (args[0].kind == Value::Kind::String) {
      const Value parsed = value_of_text(args[0].text);
      if (!parsed.is_number()) fail(name + "() cannot read '" + args[0].text + "' as a number");
      d = parsed.as_double();
    } else {
      d = args[0].as_double();
    }
    return name == "int" ? Value::of_int(static_cast<std::int64_t>(std::trunc(d))) : Value::of_float(d);
  }
  if (name == "str") {
    need(1);
    return Value::of_string(args[0].str());
  }
  if (name == "bool") {
    need(1);
    return Value::of_bool(args[0].truthy());
  }
  if (name == "len") {
    need(1);
    if (args[0].kind == Value::Kind::String) return Value::of_int(static_cast<std::int64_t>(args[0].text.size()));
    if (args[0].kind == Value::Kind::List) return Value::of_int(static_cast<std::int64_t>(args[0].items.size()));
    fail(std::string("len() of a ") + kind_name(args[0].kind));
  }
  if (name == "xacro.load_yaml" || name == "load_yaml")
    fail("load_yaml is not supported: expand this file with ROS's xacro (`xacro FILE > robot.urdf`) and open the result");
  fail("unknown function '" + name + "'");
}

class Evaluator {
 public:
  explicit Evaluator(const NameLookup& lookup) : lookup_(lookup) {}

  Value eval(const Node& n) {
    switch (n.type) {
      case Node::Type::Literal: return n.literal;
      case Node::Type::Name: return name(n.name);
      case Node::Type::Unary: {
        const Value v = eval(*n.children[0]);
        if (n.name == "+") return Value::of_float(v.as_double());
        if (is_int_like(v)) return Value::of_int(-int_of(v));
        return Value::of_float(-v.as_double());
      }
      case Node::Type::Binary: return arithmetic(n.name, eval(*n.children[0]), eval(*n.children[1]));
      case Node::Type::Compare: {
        Value left = eval(*n.children[0]);
        for (std::size_t i = 0; i < n.ops.size(); ++i) {
          Value right = eval(*n.children[i + 1]);
          if (!compare(n.ops[i], left, right)) return Value::of_bool(false);
          left = std::move(right);
        }
        return Value::of_bool(true);
      }
      case Node::Type::And: {
        Value left = eval(*n.children[0]);
        return left.truthy() ? eval(*n.children[1]) : left;
      }
      case Node::Type::Or: {
        Value left = eval(*n.children[0]);
        return left.truthy() ? left : eval(*n.children[1]);
      }
      case Node::Type::Not: return Value::of_bool(!eval(*n.children[0]).truthy());
      case Node::Type::IfElse: return eval(*n.children[0]).truthy() ? eval(*n.children[1]) : eval(*n.children[2]);
      case Node::Type::Call: {
        std::vector<Value> args;
        for (const NodePtr& c : n.children) args.push_back(eval(*c));
        return call(n.name, args);
      }
      case Node::Type::Index: {
        const Value container = eval(*n.children[0]);
        const Value index = eval(*n.children[1]);
        if (!is_int_like(index)) fail("indices must be integers, got " + index.str());
        const std::size_t size = container.kind == Value::Kind::List ? container.items.size()
                                 : container.kind == Value::Kind::String ? container.text.size() : 0;
        if (container.kind != Value::Kind::List && container.kind != Value::Kind::String)
          fail(std::string("a ") + kind_name(container.kind) + " cannot be indexed");
        std::int64_t i = int_of(index);
        if (i < 0) i += static_cast<std::int64_t>(size);
        if (i < 0 || i >= static_cast<std::int64_t>(size)) fail("index " + index.str() + " is out of range");
        if (container.kind == Value::Kind::List) return container.items[static_cast<std::size_t>(i)];
        return Value::of_string(std::string(1, container.text[static_cast<std::size_t>(i)]));
      }
      case Node::Type::List: {
        Value v;
        v.kind = Value::Kind::List;
        for (const NodePtr& c : n.children) v.items.push_back(eval(*c));
        return v;
      }
    }
    fail("malformed expression");
  }

 private:
  Value name(const std::string& name) {
    if (auto v = lookup_(name)) return *v;
    const std::string bare = name.rfind("math.", 0) == 0 ? name.substr(5) : name;
    if (bare == "pi") return Value::of_float(std::numbers::pi);
    if (bare == "e") return Value::of_float(std::numbers::e);
    if (bare == "inf") return Value::of_float(std::numeric_limits<double>::infinity());
    if (bare == "nan") return Value::of_float(std::numeric_limits<double>::quiet_NaN());
    fail("name '" + name + "' is not defined (no xacro property or macro parameter of that name is in scope here)");
  }
  const NameLookup& lookup_;
};

}  // namespace

Value evaluate(std::string_view expression, const NameLookup& lookup) {
  try {
    const NodePtr tree = parse_expression(expression);
    return Evaluator(lookup).eval(*tree);
  } catch (const Error& e) {
    throw Error(ErrorCode::ParseError, "in ${" + std::string(expression) + "}: " + e.message(), e.hint());
  }
}

}  // namespace kinetic::xacro
