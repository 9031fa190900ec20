// Evaluation of a ${...} tree: arithmetic (integers as Python's, checked), comparisons, names,
// indexing and calls. The tree's depth is bounded by the parser, and chains are loops.
#include <cmath>
#include <limits>
#include <numbers>

#include "engine/core/error.hpp"
#include "engine/model/xacro/xacro_limits.hpp"
#include "engine/model/xacro/xacro_syntax.hpp"

namespace kinetic::xacro {

bool is_int_like(const Value& v) {
  return v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool;
}
std::int64_t int_of(const Value& v) {
  return v.kind == Value::Kind::Bool ? (v.boolean ? 1 : 0) : v.integer;
}

void check_size(std::size_t bytes, const char* what) {
  if (bytes > limits::kMaxValueBytes)
    fail(std::string(what) + " makes a value of " + std::to_string(bytes) +
         " bytes, beyond xacro's budget of " + std::to_string(limits::kMaxValueBytes) +
         " bytes per value");
}

std::size_t weight_of(const Value& v) {
  if (v.kind == Value::Kind::String) return v.text.size();
  return v.kind == Value::Kind::List || v.kind == Value::Kind::Dict ? v.weight : 0;
}

std::int64_t checked_int(double d, const char* what) {
  if (std::isnan(d)) fail(std::string(what) + ": cannot convert float NaN to integer");
  if (std::isinf(d)) fail(std::string(what) + ": cannot convert float infinity to integer");
  // 2^63 is exactly representable; everything below it in magnitude fits.
  if (d >= 9223372036854775808.0 || d < -9223372036854775808.0)
    fail(std::string(what) + ": integer too large (" + Value::of_float(d).str() +
         " does not fit in 64 bits)");
  return static_cast<std::int64_t>(d);
}

namespace {

[[noreturn]] void too_large(const char* op, std::int64_t x, std::int64_t y) {
  fail("integer too large: " + std::to_string(x) + " " + op + " " + std::to_string(y) +
       " does not fit in 64 bits (write one operand as a float, e.g. 2.0, to compute in floating "
       "point)");
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  if (a == std::numeric_limits<std::int64_t>::min() && b == -1) too_large("//", a, b);
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::int64_t floor_mod(std::int64_t a, std::int64_t b) {
  if (b == -1) return 0;  // a % -1 is 0; the division itself would trap for the smallest a
  const std::int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

// x ** y for integers, y >= 0, by squaring with every step checked.
std::int64_t int_power(std::int64_t x, std::int64_t y) {
  std::int64_t result = 1, base = x;
  for (std::int64_t e = y; e > 0; e >>= 1) {
    if (e & 1)
      if (__builtin_mul_overflow(result, base, &result)) too_large("**", x, y);
    if (e > 1 && __builtin_mul_overflow(base, base, &base)) too_large("**", x, y);
  }
  return result;
}

Value repeat(const Value& sequence, std::int64_t times) {
  // Nothing repeated any number of times is nothing: not a loop of 10**18 empty copies.
  const bool empty =
      sequence.kind == Value::Kind::String ? sequence.text.empty() : sequence.items.empty();
  const std::size_t n = times > 0 && !empty ? static_cast<std::size_t>(times) : 0;
  if (sequence.kind == Value::Kind::String) {
    const std::size_t size = sequence.text.size();
    if (size != 0 && n > limits::kMaxValueBytes / size)
      check_size(limits::kMaxValueBytes + 1, "repeating a string");
    std::string out;
    out.reserve(size * n);
    for (std::size_t i = 0; i < n; ++i) out += sequence.text;
    return Value::of_string(std::move(out));
  }
  const std::size_t size = weight_of(sequence);  // checked before anything is copied
  if (size != 0 && n > limits::kMaxValueBytes / size)
    check_size(limits::kMaxValueBytes + 1, "repeating a list");
  Value out = Value::list();
  for (std::size_t i = 0; i < n; ++i)
    out.items.insert(out.items.end(), sequence.items.begin(), sequence.items.end());
  return out.settle();
}

std::string operands(const Value& a, const Value& b) {
  return std::string(kind_name(a.kind)) + " " + limits::quote(a.str()) + " and " +
         kind_name(b.kind) + " " + limits::quote(b.str());
}

Value arithmetic(const std::string& op, const Value& a, const Value& b) {
  const bool a_seq = a.kind == Value::Kind::String || a.kind == Value::Kind::List;
  const bool b_seq = b.kind == Value::Kind::String || b.kind == Value::Kind::List;
  if (op == "+" && a_seq && a.kind == b.kind) {
    if (a.kind == Value::Kind::String) {
      check_size(a.text.size() + b.text.size(), "joining strings");
      return Value::of_string(a.text + b.text);
    }
    check_size(weight_of(a) + weight_of(b), "joining lists");
    Value v = a;
    v.items.insert(v.items.end(), b.items.begin(), b.items.end());
    return v.settle();
  }
  if (op == "*" && a_seq && is_int_like(b)) return repeat(a, int_of(b));
  if (op == "*" && b_seq && is_int_like(a)) return repeat(b, int_of(a));
  if (op == "%" && a.kind == Value::Kind::String)
    fail("'%' string formatting is not supported in xacro expressions here; use str.format()");
  if (!a.is_number() || !b.is_number())
    fail("unsupported operand types for " + op + ": " + operands(a, b));
  const bool ints = is_int_like(a) && is_int_like(b);
  if (ints && op != "/") {
    const std::int64_t x = int_of(a), y = int_of(b);
    std::int64_t r = 0;
    if (op == "+") {
      if (__builtin_add_overflow(x, y, &r)) too_large("+", x, y);
      return Value::of_int(r);
    }
    if (op == "-") {
      if (__builtin_sub_overflow(x, y, &r)) too_large("-", x, y);
      return Value::of_int(r);
    }
    if (op == "*") {
      if (__builtin_mul_overflow(x, y, &r)) too_large("*", x, y);
      return Value::of_int(r);
    }
    if (op == "**") {
      if (y >= 0) return Value::of_int(int_power(x, y));
      if (x == 0) fail("zero cannot be raised to a negative power");
      return Value::of_float(std::pow(static_cast<double>(x), static_cast<double>(y)));
    }
    if (y == 0) fail(op == "//" ? "integer division by zero" : "integer modulo by zero");
    if (op == "//") return Value::of_int(floor_div(x, y));
    if (op == "%") return Value::of_int(floor_mod(x, y));
  }
  const double x = a.as_double(), y = b.as_double();
  if (op == "+") return Value::of_float(x + y);
  if (op == "-") return Value::of_float(x - y);
  if (op == "*") return Value::of_float(x * y);
  if (op == "**") {
    if (x == 0.0 && y < 0) fail("zero cannot be raised to a negative power");
    if (x < 0 && std::floor(y) != y)
      fail("a negative number to a fractional power is complex, which xacro here does not support");
    return Value::of_float(std::pow(x, y));
  }
  if (y == 0.0) fail("float division by zero");
  if (op == "/") return Value::of_float(x / y);
  if (op == "//") return Value::of_float(std::floor(x / y));
  const double m = std::fmod(x, y);  // Python's %: the sign of the divisor
  return Value::of_float(m != 0.0 && ((m < 0) != (y < 0)) ? m + y : m);
}

class Evaluator {
 public:
  Evaluator(const NameLookup& lookup, const HostCall& host) : lookup_(lookup), host_(host) {}

  // Every value made is paid for, so a long chain of big joins stops at the budget.
  Value eval(const Node& n) { return spend(eval_node(n)); }

 private:
  Value spend(Value v) {
    work_ += 16 + weight_of(v);
    if (work_ > limits::kMaxExpressionWork)
      fail("the expression makes more than " + std::to_string(limits::kMaxExpressionWork >> 20) +
           " MiB of values, beyond xacro's budget");
    return v;
  }

  Value eval_node(const Node& n) {
    switch (n.type) {
      case Node::Type::Literal:
        return n.literal;
      case Node::Type::Name:
        return name(n.name);
      case Node::Type::Unary: {
        const Value v = eval(*n.children[0]);
        if (!v.is_number()) fail("bad operand type for unary " + n.name + ": " + kind_name(v.kind));
        if (n.name == "+") return is_int_like(v) ? Value::of_int(int_of(v)) : v;
        if (is_int_like(v)) {
          if (int_of(v) == std::numeric_limits<std::int64_t>::min()) too_large("*", int_of(v), -1);
          return Value::of_int(-int_of(v));
        }
        return Value::of_float(-v.as_double());
      }
      case Node::Type::Binary: {
        Value result = eval(*n.children[0]);
        for (std::size_t i = 0; i < n.ops.size(); ++i)
          result = spend(arithmetic(n.ops[i], result, eval(*n.children[i + 1])));
        return result;
      }
      case Node::Type::Compare: {
        Value left = eval(*n.children[0]);
        for (std::size_t i = 0; i < n.ops.size(); ++i) {
          Value right = eval(*n.children[i + 1]);
          if (!compare(n.ops[i], left, right)) return Value::of_bool(false);
          left = std::move(right);
        }
        return Value::of_bool(true);
      }
      case Node::Type::And:
      case Node::Type::Or: {
        // Python's and/or: the first operand that decides, else the last.
        Value v;
        for (const NodePtr& c : n.children) {
          v = eval(*c);
          if (v.truthy() == (n.type == Node::Type::Or)) return v;
        }
        return v;
      }
      case Node::Type::Not:
        return Value::of_bool(!eval(*n.children[0]).truthy());
      case Node::Type::IfElse:
        return eval(*n.children[0]).truthy() ? eval(*n.children[1]) : eval(*n.children[2]);
      case Node::Type::Call:
        return call(n);
      case Node::Type::Method: {
        if (n.keywords.empty()) return attribute(eval(*n.children[0]), n.name);
        Arguments args = arguments(n, 1);
        return settled(call_method(eval(*n.children[0]), n.name, args));
      }
      case Node::Type::Index:
        return index(eval(*n.children[0]), eval(*n.children[1]));
      case Node::Type::List: {
        Value v = Value::list();
        for (const NodePtr& c : n.children) v.items.push_back(eval(*c));
        return v.settle();
      }
      case Node::Type::Dict: {
        Value v = Value::dict();
        for (std::size_t i = 0; i + 1 < n.children.size(); i += 2)
          v.set(eval(*n.children[i]), eval(*n.children[i + 1]));
        return v;
      }
    }
    fail("malformed expression");
  }

  Arguments arguments(const Node& n, std::size_t first) {
    Arguments args;
    for (std::size_t i = first; i < n.children.size(); ++i) {
      Value v = eval(*n.children[i]);
      if (n.keywords[i].empty())
        args.positional.push_back(std::move(v));
      else
        args.keyword.emplace_back(n.keywords[i], std::move(v));
    }
    return args;
  }

  // A function's result with its weight and depth known, whatever built it.
  static Value settled(Value v) {
    if (v.kind == Value::Kind::List || v.kind == Value::Kind::Dict) v.settle();
    return v;
  }

  Value call(const Node& n) {
    Arguments args = arguments(n, 0);
    if (host_ && args.keyword.empty())
      if (auto v = host_(n.name, args.positional)) return settled(*v);
    if (auto v = call_builtin(n.name, args)) return settled(*v);
    // obj.method(...) written as one dotted name: the object is the name before the last dot.
    if (const auto dot = n.name.rfind('.'); dot != std::string::npos) {
      if (auto object = defined(n.name.substr(0, dot)))
        return settled(call_method(*object, n.name.substr(dot + 1), args));
    }
    fail("unknown function " + limits::quote(n.name));
  }

  static Value index(const Value& container, const Value& key) {
    if (container.kind == Value::Kind::Dict) {
      if (const Value* v = container.find(key)) return *v;
      fail("KeyError: " + limits::clip(key.repr()) +
           " is not a key of the dict (keys: " + limits::clip(keys_of(container)) + ")");
    }
    if (container.kind != Value::Kind::List && container.kind != Value::Kind::String)
      fail(std::string("a ") + kind_name(container.kind) + " cannot be indexed");
    if (!is_int_like(key))
      fail(std::string(kind_name(container.kind)) + " indices must be integers, got " +
           limits::quote(key.repr()));
    const std::size_t size =
        container.kind == Value::Kind::List ? container.items.size() : container.text.size();
    std::int64_t i = int_of(key);
    if (i < 0) i += static_cast<std::int64_t>(size);
    if (i < 0 || i >= static_cast<std::int64_t>(size))
      fail("index " + key.str() + " is out of range (size " + std::to_string(size) + ")");
    if (container.kind == Value::Kind::List) return container.items[static_cast<std::size_t>(i)];
    return Value::of_string(std::string(1, container.text[static_cast<std::size_t>(i)]));
  }

  static std::string keys_of(const Value& dict) {
    std::string out;
    for (const Value& k : dict.keys) out += (out.empty() ? "" : ", ") + k.str();
    return out;
  }

  // d.key of a dict (xacro's YAML dicts allow it), else an error.
  static Value attribute(const Value& object, const std::string& name) {
    if (object.kind == Value::Kind::Dict)
      if (const Value* v = object.find(Value::of_string(name))) return *v;
    fail(std::string("a ") + kind_name(object.kind) + " has no attribute " + limits::quote(name));
  }

  // A name's value, nullopt when it is not defined: a property, a constant, or a dotted path
  // into a dict property (cfg.arm.length).
  std::optional<Value> defined(const std::string& name) {
    if (auto v = lookup_(name)) return v;
    const std::string bare = name.rfind("math.", 0) == 0 ? name.substr(5) : name;
    if (bare == "pi") return Value::of_float(std::numbers::pi);
    if (bare == "e") return Value::of_float(std::numbers::e);
    if (bare == "tau") return Value::of_float(2 * std::numbers::pi);
    if (bare == "inf") return Value::of_float(std::numeric_limits<double>::infinity());
    if (bare == "nan") return Value::of_float(std::numeric_limits<double>::quiet_NaN());
    for (auto dot = name.rfind('.'); dot != std::string::npos && dot > 0;
         dot = name.rfind('.', dot - 1)) {
      if (auto head = lookup_(name.substr(0, dot))) {
        Value v = *head;
        for (std::size_t start = dot + 1; start <= name.size();) {
          const std::size_t end = std::min(name.find('.', start), name.size());
          v = attribute(v, name.substr(start, end - start));
          start = end + 1;
        }
        return v;
      }
      if (dot == 0) break;
    }
    return std::nullopt;
  }

  Value name(const std::string& name) {
    if (auto v = defined(name)) return *v;
    fail("name " + limits::quote(name) +
         " is not defined (no xacro property or macro parameter of that name is in scope here)");
  }

  const NameLookup& lookup_;
  const HostCall& host_;
  std::size_t work_ = 0;
};

}  // namespace

bool equal(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (is_int_like(a) && is_int_like(b)) return int_of(a) == int_of(b);
    return a.as_double() == b.as_double();
  }
  if (a.kind != b.kind) return false;
  if (a.kind == Value::Kind::String) return a.text == b.text;
  if (a.kind == Value::Kind::None) return true;
  if (a.items.size() != b.items.size()) return false;
  if (a.kind == Value::Kind::Dict) {
    for (std::size_t i = 0; i < a.keys.size(); ++i) {
      const Value* other = b.find(a.keys[i]);
      if (!other || !equal(a.items[i], *other)) return false;
    }
    return true;
  }
  for (std::size_t i = 0; i < a.items.size(); ++i)
    if (!equal(a.items[i], b.items[i])) return false;
  return true;
}

bool compare(const std::string& op, const Value& a, const Value& b) {
  if (op == "==" || op == "is") return equal(a, b);
  if (op == "!=" || op == "is not") return !equal(a, b);
  if (op == "in" || op == "not in") {
    bool found = false;
    if (b.kind == Value::Kind::String && a.kind == Value::Kind::String)
      found = b.text.find(a.text) != std::string::npos;
    else if (b.kind == Value::Kind::List)
      for (const Value& item : b.items) found = found || equal(a, item);
    else if (b.kind == Value::Kind::Dict)
      found = b.find(a) != nullptr;
    else
      fail(std::string("'in' needs a string, a list or a dict on its right, got ") +
           kind_name(b.kind));
    return op == "in" ? found : !found;
  }
  int order = 0;
  if (a.is_number() && b.is_number()) {
    if (is_int_like(a) && is_int_like(b))
      order = int_of(a) < int_of(b) ? -1 : int_of(a) > int_of(b) ? 1 : 0;
    else
      order = a.as_double() < b.as_double() ? -1 : a.as_double() > b.as_double() ? 1 : 0;
  } else if (a.kind == Value::Kind::String && b.kind == Value::Kind::String) {
    order = a.text.compare(b.text);
  } else if (a.kind == Value::Kind::List && b.kind == Value::Kind::List) {
    std::size_t i = 0;
    while (i < a.items.size() && i < b.items.size() && equal(a.items[i], b.items[i])) ++i;
    if (i < a.items.size() && i < b.items.size()) return compare(op, a.items[i], b.items[i]);
    order = a.items.size() < b.items.size() ? -1 : a.items.size() > b.items.size() ? 1 : 0;
  } else {
    fail(std::string("cannot order ") + kind_name(a.kind) + " and " + kind_name(b.kind));
  }
  if (op == "<") return order < 0;
  if (op == ">") return order > 0;
  if (op == "<=") return order <= 0;
  return order >= 0;
}

Value evaluate(std::string_view expression, const NameLookup& lookup, const HostCall& host) {
  try {
    const NodePtr tree = parse_expression(expression);
    return Evaluator(lookup, host).eval(*tree);
  } catch (const Error& e) {
    throw Error(ErrorCode::ParseError, "in ${" + limits::clip(expression) + "}: " + e.message(),
                e.hint());
  }
}

}  // namespace kinetic::xacro
