// The parser of ${...} expressions: tokens, then a tree by Python's precedence (or, and, not,
// comparisons, + -, * / // %, unary signs, **, calls, attributes and indexing). Chains are loops,
// and nesting is counted (limits::kMaxExpressionNesting), so no input can exhaust the stack.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <memory>

#include "engine/model/xacro/xacro_limits.hpp"
#include "engine/model/xacro/xacro_syntax.hpp"

namespace kinetic::xacro {

namespace {

NodePtr make(Node::Type type) {
  auto n = std::make_unique<Node>();
  n->type = type;
  return n;
}

// ---- Tokens -------------------------------------------------------------------------------
enum class Tok { Number, String, Name, Op, End };
struct Token {
  Tok type = Tok::End;
  std::string text;
  Value literal;
};

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      std::size_t j = i;
      bool is_float = false;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.'))
        is_float |= s[j++] == '.';
      if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
        if (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) {
          is_float = true;
          j = k;
          while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        }
      }
      const std::string text(s.substr(i, j - i));
      Token t{Tok::Number, text, {}};
      if (is_float) {
        double d = 0.0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), d);
        if (r.ec == std::errc::result_out_of_range) {
          const auto e = text.find_first_of("eE");  // as Python: 1e-999 is 0.0, 1e999 is inf
          d = e != std::string::npos && text[e + 1] == '-' ? 0.0 : HUGE_VAL;
        } else if (r.ec != std::errc() || r.ptr != text.data() + text.size())
          fail("malformed number " + limits::quote(text));
        t.literal = Value::of_float(d);
      } else {
        std::int64_t v = 0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
        if (r.ec == std::errc::result_out_of_range)
          fail("integer too large: " + limits::quote(text) + " does not fit in 64 bits");
        if (r.ec != std::errc() || r.ptr != text.data() + text.size())
          fail("malformed number " + limits::quote(text));
        t.literal = Value::of_int(v);
      }
      out.push_back(std::move(t));
      i = j;
      continue;
    }
    if (c == '\'' || c == '"') {
      std::string text;
      std::size_t j = i + 1;
      for (; j < s.size() && s[j] != c; ++j) {
        if (s[j] == '\\' && j + 1 < s.size()) {
          const char e = s[++j];
          text += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        } else {
          text += s[j];
        }
      }
      if (j >= s.size()) fail("unterminated string");
      if (text.size() > limits::kMaxValueBytes)
        fail("a string literal is larger than the budget of 1 MiB");
      out.push_back({Tok::String, text, Value::of_string(text)});
      i = j + 1;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      out.push_back({Tok::Name, std::string(s.substr(i, j - i)), {}});
      i = j;
      continue;
    }
    static const char* const kTwoChar[] = {"**", "//", "==", "!=", "<=", ">="};
    std::string op(1, c);
    for (const char* two : kTwoChar)
      if (s.substr(i, 2) == two) op = two;
    if (op.size() == 1 && std::string_view("+-*/%<>()[]{},.:=").find(c) == std::string_view::npos)
      fail("unexpected character " + limits::quote(std::string(1, c)));
    out.push_back({Tok::Op, op, {}});
    i += op.size();
  }
  out.push_back({Tok::End, "", {}});
  return out;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  NodePtr parse() {
    NodePtr n = expression();
    if (peek().type != Tok::End) fail("unexpected " + limits::quote(peek().text));
    return n;
  }

 private:
  // One level deeper for as long as it lives; every recursion of the grammar passes through one.
  struct Nesting {
    explicit Nesting(Parser& parser) : parser_(parser) {
      if (++parser_.depth_ > limits::kMaxExpressionNesting)
        fail("the expression nests deeper than " + std::to_string(limits::kMaxExpressionNesting) +
             " levels (parentheses, brackets, signs, not, calls)");
    }
    ~Nesting() { --parser_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    Parser& parser_;
  };

  const Token& peek(std::size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  bool at_op(const char* op, std::size_t ahead = 0) const {
    return peek(ahead).type == Tok::Op && peek(ahead).text == op;
  }
  bool at_name(const char* name) const { return peek().type == Tok::Name && peek().text == name; }
  void expect_op(const char* op) {
    if (!at_op(op))
      fail(std::string("expected '") + op + "'" +
           (peek().type == Tok::End ? " at the end" : " before " + limits::quote(peek().text)));
    ++pos_;
  }

  NodePtr expression() {
    const Nesting nesting(*this);
    NodePtr value = or_test();
    if (!at_name("if")) return value;
    ++pos_;
    NodePtr condition = or_test();
    if (!at_name("else")) fail("expected 'else' in a conditional expression");
    ++pos_;
    NodePtr other = expression();
    NodePtr n = make(Node::Type::IfElse);
    n->children.push_back(std::move(condition));
    n->children.push_back(std::move(value));
    n->children.push_back(std::move(other));
    return n;
  }
  // a or b or c / a and b and c: one node with the operands as children.
  NodePtr logic_chain(Node::Type type, const char* word, NodePtr (Parser::*next)()) {
    NodePtr first = (this->*next)();
    if (!at_name(word)) return first;
    NodePtr n = make(type);
    n->children.push_back(std::move(first));
    while (at_name(word)) {
      ++pos_;
      n->children.push_back((this->*next)());
    }
    return n;
  }
  NodePtr or_test() { return logic_chain(Node::Type::Or, "or", &Parser::and_test); }
  NodePtr and_test() { return logic_chain(Node::Type::And, "and", &Parser::not_test); }
  NodePtr not_test() {
    if (!at_name("not")) return comparison();
    const Nesting nesting(*this);
    ++pos_;
    NodePtr n = make(Node::Type::Not);
    n->children.push_back(not_test());
    return n;
  }
  NodePtr comparison() {
    NodePtr first = arith();
    NodePtr n;
    for (;;) {
      std::string op;
      if (peek().type == Tok::Op &&
          (peek().text == "<" || peek().text == ">" || peek().text == "==" || peek().text == "!=" ||
           peek().text == "<=" || peek().text == ">=")) {
        op = peek().text;
        ++pos_;
      } else if (at_name("in")) {
        op = "in";
        ++pos_;
      } else if (at_name("not") && peek(1).type == Tok::Name && peek(1).text == "in") {
        op = "not in";
        pos_ += 2;
      } else if (at_name("is")) {
        op = "is";
        ++pos_;
        if (at_name("not")) {
          op = "is not";
          ++pos_;
        }
      } else {
        break;
      }
      if (!n) {
        n = make(Node::Type::Compare);
        n->children.push_back(std::move(first));
      }
      n->ops.push_back(op);
      n->children.push_back(arith());
    }
    return n ? std::move(n) : std::move(first);
  }
  NodePtr binary_chain(NodePtr (Parser::*next)(), std::initializer_list<const char*> ops) {
    NodePtr first = (this->*next)();
    NodePtr n;
    for (;;) {
      const char* matched = nullptr;
      for (const char* op : ops)
        if (at_op(op)) matched = op;
      if (!matched) return n ? std::move(n) : std::move(first);
      ++pos_;
      if (!n) {
        n = make(Node::Type::Binary);
        n->children.push_back(std::move(first));
      }
      n->ops.push_back(matched);
      n->children.push_back((this->*next)());
    }
  }
  NodePtr arith() { return binary_chain(&Parser::term, {"+", "-"}); }
  NodePtr term() { return binary_chain(&Parser::factor, {"*", "/", "//", "%"}); }
  NodePtr factor() {
    if (at_op("-") || at_op("+")) {
      const Nesting nesting(*this);
      NodePtr n = make(Node::Type::Unary);
      n->name = peek().text;
      ++pos_;
      n->children.push_back(factor());
      return n;
    }
    return power();
  }
  NodePtr power() {
    NodePtr base = primary();
    if (!at_op("**")) return base;
    const Nesting nesting(*this);
    ++pos_;
    NodePtr n = make(Node::Type::Binary);
    n->ops.push_back("**");
    n->children.push_back(std::move(base));
    n->children.push_back(factor());  // right-associative, binds unary minus on its right
    return n;
  }
  // Arguments up to the closing ')': positional, then NAME=value.
  void arguments(Node& call) {
    if (at_op(")")) {
      ++pos_;
      return;
    }
    for (;;) {
      std::string keyword;
      if (peek().type == Tok::Name && at_op("=", 1)) {
        keyword = peek().text;
        pos_ += 2;
      } else if (!call.keywords.empty() && !call.keywords.back().empty()) {
        fail("a positional argument follows a keyword argument");
      }
      call.keywords.push_back(keyword);
      call.children.push_back(expression());
      if (!at_op(",")) break;
      ++pos_;
      if (at_op(")")) break;
    }
    expect_op(")");
  }
  NodePtr primary() {
    NodePtr n = atom();
    // x[0][1].get('a')(...): each postfix is one level of the tree, so each counts as nesting.
    int postfixes = 0;
    struct Restore {
      Parser& parser;
      int& count;
      ~Restore() { parser.depth_ -= count; }
    } restore{*this, postfixes};
    const auto deeper = [&] {
      ++postfixes;
      if (++depth_ > limits::kMaxExpressionNesting)
        fail("the expression nests deeper than " + std::to_string(limits::kMaxExpressionNesting) +
             " levels (parentheses, brackets, signs, not, calls)");
    };
    for (;;) {
      if (at_op("(")) {
        deeper();
        ++pos_;
        NodePtr call;
        if (n->type == Node::Type::Name) {
          call = make(Node::Type::Call);
          call->name = n->name;
        } else if (n->type == Node::Type::Method && n->children.size() == 1 &&
                   n->keywords.empty()) {
          call = std::move(n);           // x.method( ... ): the attribute node becomes the call
          call->keywords.push_back("");  // the object
        } else {
          fail("only named functions and methods can be called");
        }
        arguments(*call);
        n = std::move(call);
      } else if (at_op("[")) {
        deeper();
        ++pos_;
        NodePtr index = make(Node::Type::Index);
        index->children.push_back(std::move(n));
        index->children.push_back(expression());
        expect_op("]");
        n = std::move(index);
      } else if (at_op(".") && peek(1).type == Tok::Name && n->type != Node::Type::Name) {
        deeper();
        NodePtr attribute = make(Node::Type::Method);  // an attribute until it is called
        attribute->name = peek(1).text;
        attribute->children.push_back(std::move(n));
        pos_ += 2;
        n = std::move(attribute);
      } else {
        return n;
      }
    }
  }
  NodePtr atom() {
    const Token& t = peek();
    if (t.type == Tok::Number || t.type == Tok::String) {
      NodePtr n = make(Node::Type::Literal);
      n->literal = t.literal;
      ++pos_;
      // Adjacent string literals join, as in Python.
      while (n->literal.kind == Value::Kind::String && peek().type == Tok::String) {
        n->literal.text += tokens_[pos_++].text;
        check_size(n->literal.text.size(), "joining string literals");
      }
      return n;
    }
    if (t.type == Tok::Name) {
      NodePtr n = make(Node::Type::Name);
      n->name = t.text;
      ++pos_;
      // Dotted names: math.pi, a property of an include's namespace (ns.length), a dict's key.
      while (at_op(".") && peek(1).type == Tok::Name) {
        n->name += "." + peek(1).text;
        pos_ += 2;
        if (n->name.size() > 1000) fail("a dotted name longer than 1000 characters");
      }
      if (n->name == "True" || n->name == "False" || n->name == "None") {
        n->type = Node::Type::Literal;
        n->literal = n->name == "None" ? Value{} : Value::of_bool(n->name == "True");
      }
      return n;
    }
    if (at_op("(")) {
      ++pos_;
      NodePtr n = expression();
      if (at_op(",")) {  // a tuple: kept as a list
        NodePtr list = make(Node::Type::List);
        list->children.push_back(std::move(n));
        while (at_op(",")) {
          ++pos_;
          if (at_op(")")) break;
          list->children.push_back(expression());
        }
        n = std::move(list);
      }
      expect_op(")");
      return n;
    }
    if (at_op("[")) {
      ++pos_;
      NodePtr n = make(Node::Type::List);
      while (!at_op("]")) {
        n->children.push_back(expression());
        if (!at_op(",")) break;
        ++pos_;
      }
      expect_op("]");
      return n;
    }
    if (at_op("{")) {
      ++pos_;
      NodePtr n = make(Node::Type::Dict);  // children: key, value, key, value, ...
      while (!at_op("}")) {
        n->children.push_back(expression());
        expect_op(":");
        n->children.push_back(expression());
        if (!at_op(",")) break;
        ++pos_;
      }
      expect_op("}");
      return n;
    }
    fail(t.type == Tok::End ? "the expression ends too early"
                            : "unexpected " + limits::quote(t.text));
  }

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

NodePtr parse_expression(std::string_view expression) {
  Parser parser(tokenize(expression));
  return parser.parse();
}

}  // namespace kinetic::xacro
