// The parser of ${...} expressions: tokens, then a tree by Python's precedence (or, and, not,
// comparisons, + -, * / // %, unary signs, **, calls and indexing).
#include <cctype>
#include <charconv>
#include <memory>

#include "engine/model/xacro_syntax.hpp"

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
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      std::size_t j = i;
      bool is_float = false;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) is_float |= s[j++] == '.';
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
        if (r.ec != std::errc() || r.ptr != text.data() + text.size()) fail("malformed number '" + text + "'");
        t.literal = Value::of_float(d);
      } else {
        std::int64_t v = 0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
        if (r.ec != std::errc()) fail("malformed number '" + text + "'");
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
    if (op.size() == 1 && std::string_view("+-*/%<>()[],.").find(c) == std::string_view::npos)
      fail(std::string("unexpected character '") + c + "'");
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
    if (peek().type != Tok::End) fail("unexpected '" + peek().text + "'");
    return n;
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }
  bool at_op(const char* op) const { return peek().type == Tok::Op && peek().text == op; }
  bool at_name(const char* name) const { return peek().type == Tok::Name && peek().text == name; }
  void expect_op(const char* op) {
    if (!at_op(op)) fail(std::string("expected '") + op + "'" + (peek().type == Tok::End ? " at the end" : " before '" + peek().text + "'"));
    ++pos_;
  }

  NodePtr expression() {
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
  NodePtr or_test() {
    NodePtr left = and_test();
    while (at_name("or")) {
      ++pos_;
      NodePtr n = make(Node::Type::Or);
      n->children.push_back(std::move(left));
      n->children.push_back(and_test());
      left = std::move(n);
    }
    return left;
  }
  NodePtr and_test() {
    NodePtr left = not_test();
    while (at_name("and")) {
      ++pos_;
      NodePtr n = make(Node::Type::And);
      n->children.push_back(std::move(left));
      n->children.push_back(not_test());
      left = std::move(n);
    }
    return left;
  }
  NodePtr not_test() {
    if (!at_name("not")) return comparison();
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
      if (peek().type == Tok::Op && (peek().text == "<" || peek().text == ">" || peek().text == "==" ||
                                     peek().text == "!=" || peek().text == "<=" || peek().text == ">=")) {
        op = peek().text;
        ++pos_;
      } else if (at_name("in")) {
        op = "in";
        ++pos_;
      } else if (at_name("not") && tokens_[pos_ + 1].type == Tok::Name && tokens_[pos_ + 1].text == "in") {
        op = "not in";
        pos_ += 2;
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
    NodePtr left = (this->*next)();
    for (;;) {
      const char* matched = nullptr;
      for (const char* op : ops)
        if (at_op(op)) matched = op;
      if (!matched) return left;
      ++pos_;
      NodePtr n = make(Node::Type::Binary);
      n->name = matched;
      n->children.push_back(std::move(left));
      n->children.push_back((this->*next)());
      left = std::move(n);
    }
  }
  NodePtr arith() { return binary_chain(&Parser::term, {"+", "-"}); }
  NodePtr term() { return binary_chain(&Parser::factor, {"*", "/", "//", "%"}); }
  NodePtr factor() {
    if (at_op("-") || at_op("+")) {
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
    ++pos_;
    NodePtr n = make(Node::Type::Binary);
    n->name = "**";
    n->children.push_back(std::move(base));
    n->children.push_back(factor());  // right-associative, binds unary minus on its right
    return n;
  }
  NodePtr primary() {
    NodePtr n = atom();
    for (;;) {
      if (at_op("(")) {
        if (n->type != Node::Type::Name) fail("only named functions can be called");
        ++pos_;
        NodePtr call = make(Node::Type::Call);
        call->name = n->name;
        if (!at_op(")")) {
          call->children.push_back(expression());
          while (at_op(",")) {
            ++pos_;
            call->children.push_back(expression());
          }
        }
        expect_op(")");
        n = std::move(call);
      } else if (at_op("[")) {
        ++pos_;
        NodePtr index = make(Node::Type::Index);
        index->children.push_back(std::move(n));
        index->children.push_back(expression());
        expect_op("]");
        n = std::move(index);
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
      while (n->literal.kind == Value::Kind::String && peek().type == Tok::String) n->literal.text += tokens_[pos_++].text;
      return n;
    }
    if (t.type == Tok::Name) {
      NodePtr n = make(Node::Type::Name);
      n->name = t.text;
      ++pos_;
      // Dotted names: math.pi, a property of an include's namespace (ns.length).
      while (at_op(".") && tokens_[pos_ + 1].type == Tok::Name) {
        n->name += "." + tokens_[pos_ + 1].text;
        pos_ += 2;
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
      expect_op(")");
      return n;
    }
    if (at_op("[")) {
      ++pos_;
      NodePtr n = make(Node::Type::List);
      if (!at_op("]")) {
        n->children.push_back(expression());
        while (at_op(",")) {
          ++pos_;
          if (at_op("]")) break;
          n->children.push_back(expression());
        }
      }
      expect_op("]");
      return n;
    }
    fail(t.type == Tok::End ? "the expression ends too early" : "unexpected '" + t.text + "'");
  }

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
};

}  // namespace

NodePtr parse_expression(std::string_view expression) {
  Parser parser(tokenize(expression));
  return parser.parse();
}

}  // namespace kinetic::xacro
