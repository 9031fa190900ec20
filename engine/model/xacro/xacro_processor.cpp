#include "engine/model/xacro/xacro_processor.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "engine/core/error.hpp"
#include "engine/core/xml_limits.hpp"
#include "engine/model/xacro/xacro_expression.hpp"
#include "engine/model/xacro/xacro_files.hpp"
#include "engine/model/xacro/xacro_limits.hpp"
#include "engine/model/xacro/xacro_yaml.hpp"
#include "engine/model/xml_errors.hpp"

namespace fs = std::filesystem;
using tinyxml2::XMLElement;
using tinyxml2::XMLNode;

namespace kinetic::xacro {

namespace {
using limits::quote;
constexpr int kMaxDepth =
    limits::kMaxMacroDepth;  // nested macro calls and includes: a recursive macro stops here
constexpr const char* kHint =
    "Kinetic expands xacro's common features itself; for others, run ROS's xacro "
    "(`xacro robot.urdf.xacro > robot.urdf`) and open the URDF it writes";

bool is_xacro_uri(const char* uri) {
  const std::string u = uri ? uri : "";
  return u == "http://www.ros.org/wiki/xacro" || u == "http://ros.org/wiki/xacro" ||
         u == "https://www.ros.org/wiki/xacro" || u == "https://ros.org/wiki/xacro" ||
         u == "http://wiki.ros.org/xacro";
}

// An error already carrying its place, passed through the enclosing elements unchanged.
struct PlacedError : Error {
  using Error::Error;
};

// One level deeper in a counter for as long as it lives; throws past `limit`.
class DepthGuard {
 public:
  DepthGuard(int& depth, int limit, const char* what) : depth_(depth) {
    if (++depth_ > limit) {
      --depth_;
      throw Error(ErrorCode::ParseError,
                  std::string(what) + " nest deeper than " + std::to_string(limit) + " levels");
    }
  }
  ~DepthGuard() { --depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  int& depth_;
};

// A property: its text, evaluated in its own scope the first time it is used (xacro's lazy
// evaluation), or a block of XML (block properties and block parameters).
struct Scope;
struct Property {
  std::string raw;
  std::optional<Value> value;
  bool evaluating = false;
  const XMLElement* block = nullptr;
  bool insert_element_itself =
      false;  // *param: the element; **param and block properties: its children
  Scope* home = nullptr;
};

struct Param {
  std::string name;
  enum class Kind { Plain, Block, BlockContent } kind = Kind::Plain;
  std::optional<std::string> default_text;
  bool inherit = false;  // :=^ (the caller's property of that name), :=^|default
};

struct Macro {
  std::string name;
  std::vector<Param> params;
  const XMLElement* body = nullptr;
  std::string file;
};

struct Scope {
  Scope* parent = nullptr;
  std::map<std::string, Property> properties;
  std::map<std::string, std::shared_ptr<Macro>> macros;

  Property* find_property(const std::string& name) {
    for (Scope* s = this; s; s = s->parent)
      if (auto it = s->properties.find(name); it != s->properties.end()) return &it->second;
    return nullptr;
  }
  std::shared_ptr<Macro> find_macro(const std::string& name) {
    for (Scope* s = this; s; s = s->parent)
      if (auto it = s->macros.find(name); it != s->macros.end()) return it->second;
    return nullptr;
  }
  Scope& root() { return parent ? parent->root() : *this; }
};

class Expander {
 public:
  Expander(const ExpandOptions& options)
      : args_(options.args),
        find_package_(options.find_package),
        warn_(options.warn),
        started_(std::chrono::steady_clock::now()) {}

  std::string run(const std::string& text, const std::string& path) {
    file_ = path;
    check_xml_attribute_counts(text, path);
    if (doc_.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS)
      throw Error(ErrorCode::ParseError, detail::describe_xml_error(doc_, path, "xacro file"));
    XMLElement* root = doc_.RootElement();
    if (!root) throw Error(ErrorCode::ParseError, path + ": the xacro file has no root element");
    prefix_ = xacro_prefix(root);
    Scope scope;
    try {
      // The root's attributes last: <robot name="$(arg name)"> may use an arg declared inside.
      process_children(root, scope);
      evaluate_attributes(root, scope);
    } catch (const Error& e) {
      throw Error(ErrorCode::ParseError, e.message(), e.hint().empty() ? kHint : e.hint());
    }
    // The xacro namespace declaration has nothing left to name.
    for (const tinyxml2::XMLAttribute* a = root->FirstAttribute(); a;) {
      const tinyxml2::XMLAttribute* next = a->Next();
      if (std::string(a->Name()).rfind("xmlns:", 0) == 0 && is_xacro_uri(a->Value()))
        root->DeleteAttribute(a->Name());
      a = next;
    }
    tinyxml2::XMLPrinter printer;
    doc_.Print(&printer);
    return printer.CStr();
  }

 private:
  // The prefix the document gives the xacro namespace ("xacro" nearly always).
  static std::string xacro_prefix(const XMLElement* root) {
    for (const tinyxml2::XMLAttribute* a = root->FirstAttribute(); a; a = a->Next()) {
      const std::string name = a->Name();
      if (name.rfind("xmlns:", 0) == 0 && is_xacro_uri(a->Value())) return name.substr(6);
    }
    return "xacro";
  }
  bool is_xacro_element(const XMLElement* e, std::string& local) const {
    const std::string name = e->Name();
    if (name.size() <= prefix_.size() + 1 || name.compare(0, prefix_.size(), prefix_) != 0 ||
        name[prefix_.size()] != ':')
      return false;
    local = name.substr(prefix_.size() + 1);
    return true;
  }

  // The line of a node in its file: tinyxml2 keeps it for parsed nodes only, so copies (macro
  // bodies, included files) carry their original's in lines_.
  int line_of(const XMLNode* node) const {
    if (const int line = node->GetLineNum(); line > 0) return line;
    const auto it = lines_.find(node);
    return it == lines_.end() ? 0 : it->second;
  }
  XMLNode* clone(const XMLNode* source) {
    XMLNode* copy = source->DeepClone(&doc_);
    std::vector<std::pair<const XMLNode*, const XMLNode*>> pending{{source, copy}};
    while (!pending.empty()) {
      const auto [from, to] = pending.back();
      pending.pop_back();
      lines_[to] = line_of(from);
      for (const XMLNode *a = from->FirstChild(), *b = to->FirstChild(); a && b;
           a = a->NextSibling(), b = b->NextSibling())
        pending.emplace_back(a, b);
    }
    return copy;
  }
  XMLElement* new_holder(const char* name) {
    XMLElement* holder = doc_.NewElement(name);
    lines_.erase(holder);  // the memory of a deleted copy may be reused
    return holder;
  }

  std::string place(const XMLNode* node) const {
    const int line = node ? line_of(node) : 0;
    std::string where = file_ + (line > 0 ? ":" + std::to_string(line) : "");
    // The innermost few of a deep chain of calls: enough to find the place, never the whole stack.
    constexpr std::size_t kShown = 4;
    for (std::size_t i = 0; i < calls_.size() && i < kShown; ++i)
      where += " (" + calls_[calls_.size() - 1 - i] + ")";
    if (calls_.size() > kShown)
      where += " (... " + std::to_string(calls_.size() - kShown) + " more levels)";
    return where;
  }
  [[noreturn]] void fail(const XMLNode* node, const std::string& what,
                         const std::string& hint = {}) const {
    throw PlacedError(ErrorCode::ParseError, place(node) + ": " + what, hint);
  }
  static std::string attribute(const XMLElement* e, const char* name) {
    const char* v = e->Attribute(name);
    return v ? v : "";
  }
  std::string required(const XMLElement* e, const char* name) const {
    const char* v = e->Attribute(name);
    if (!v) fail(e, "<" + limits::clip(e->Name()) + "> needs a " + name + "=\"...\" attribute");
    return v;
  }

  // ---- Text: ${expression}, $(substitution), $$ escapes ----------------------------------------
  Value lookup_value(const std::string& name, Scope& scope) {
    Property* p = scope.find_property(name);
    if (!p) return {};
    if (p->block)
      throw Error(ErrorCode::ParseError, quote(name) + " is a block of XML: use <" + prefix_ +
                                             ":insert_block name=\"" + name + "\"/>");
    if (!p->value) {
      if (p->evaluating)
        throw Error(ErrorCode::ParseError,
                    "property " + quote(name) + " is defined in terms of itself");
      const DepthGuard guard(property_depth_, limits::kMaxPropertyDepth,
                             "properties defined through other properties");
      p->evaluating = true;
      Value v;
      try {
        v = eval_text(p->raw, *p->home);
      } catch (...) {
        p->evaluating = false;
        throw;
      }
      p->evaluating = false;
      p->value = stored(v.kind == Value::Kind::String ? value_of_text(v.text) : v);
    }
    return *p->value;
  }
  NameLookup lookup_in(Scope& scope) {
    return [this, &scope](const std::string& name) -> std::optional<Value> {
      if (!scope.find_property(name)) return std::nullopt;
      return lookup_value(name, scope);
    };
  }

  static std::size_t closing(const std::string& text, std::size_t open, char opening,
                             char closing_char) {
    int depth = 0;
    char quote = 0;
    for (std::size_t i = open; i < text.size(); ++i) {
      const char c = text[i];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == opening) {
        ++depth;
      } else if (c == closing_char && --depth == 0) {
        return i;
      }
    }
    return std::string::npos;
  }

  std::string substitution(const std::string& body, Scope& scope) {
    std::istringstream words(body);
    std::string command;
    words >> command;
    std::string rest;
    std::getline(words, rest);
    rest.erase(0, rest.find_first_not_of(" \t"));
    if (command == "arg") {
      auto it = args_.find(rest);
      if (it == args_.end())
        throw Error(ErrorCode::ParseError,
                    "$(arg " + limits::clip(rest) + "): the argument is not set and has no <" +
                        prefix_ + ":arg name=\"...\" default=\"...\"/>",
                    "pass it when loading (NAME:=VALUE) or give it a default");
      return it->second;
    }
    if (command == "find") {
      const auto folder = find_package_ ? find_package_(rest) : std::nullopt;
      if (!folder)
        throw Error(
            ErrorCode::ParseError,
            "$(find " + limits::clip(rest) + "): package '" + limits::clip(rest) +
                "' was not found",
            "add the folder that holds package '" + rest +
                "' to the package paths (--package-path DIR, robot.package_paths in a job file, "
                "Settings > Package search paths in the studio, or ROS_PACKAGE_PATH)");
      return *folder;
    }
    if (command == "env" || command == "optenv") {
      std::istringstream parts(rest);
      std::string name;
      parts >> name;
      std::string fallback;
      std::getline(parts, fallback);
      fallback.erase(0, fallback.find_first_not_of(" \t"));
      if (const char* v = std::getenv(name.c_str())) return v;
      if (command == "optenv") return fallback;
      throw Error(ErrorCode::ParseError,
                  "$(env " + limits::clip(name) + "): the environment variable is not set");
    }
    if (command == "dirname") return fs::path(file_).parent_path().string();
    if (command == "eval") return evaluate(rest, lookup_in(scope), host_in(scope)).str();
    throw Error(ErrorCode::ParseError, "$(" + quote(command) +
                                           " ...) is not a xacro substitution Kinetic knows (find, "
                                           "arg, env, optenv, dirname, eval)");
  }

  // A text with ${...} and $(...) replaced. A text that is exactly one ${...} keeps the value's
  // type (a property set from it stays a number); others are strings.
  Value eval_text(const std::string& text, Scope& scope) {
    if (text.find('$') == std::string::npos) return Value::of_string(text);
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
      if (text[i] == '$' && i + 2 < text.size() && text[i + 1] == '$' &&
          (text[i + 2] == '{' || text[i + 2] == '(')) {
        out += '$';  // $${ and $$( are the literal texts ${ and $(
        i += 2;
        continue;
      }
      if (text[i] == '$' && i + 1 < text.size() && (text[i + 1] == '{' || text[i + 1] == '(')) {
        const bool expression = text[i + 1] == '{';
        const std::size_t end = closing(text, i + 1, text[i + 1], expression ? '}' : ')');
        if (end == std::string::npos)
          throw Error(ErrorCode::ParseError, std::string("unclosed ") + (expression ? "${" : "$(") +
                                                 " in " + quote(text.substr(i)));
        const std::string body = text.substr(i + 2, end - i - 2);
        if (expression) {
          // As xacro: $(arg x), $(find p), ... inside ${} are replaced as text first.
          const std::string resolved =
              body.find("$(") == std::string::npos ? body : inner_text(body, scope);
          Value v = evaluate(resolved, lookup_in(scope), host_in(scope));
          if (i == 0 && end + 1 == text.size()) return v;
          out += v.str();
        } else {
          out += substitution(inner_text(body, scope), scope);
        }
        limits_check_value(out.size());
        i = end + 1;
        continue;
      }
      out += text[i++];
    }
    return Value::of_string(out);
  }

  // A value kept in a property or parameter, counted against the budget of stored values.
  Value stored(Value v) {
    stored_bytes_ += 64 + weight_of(v);
    if (stored_bytes_ > limits::kMaxStoredBytes)
      throw Error(ErrorCode::ParseError,
                  "the values stored in properties and parameters exceed xacro's budget of " +
                      std::to_string(limits::kMaxStoredBytes >> 20) + " MiB");
    return v;
  }

  // The text inside a ${...} or $(...), its own substitutions made: each level counted.
  std::string inner_text(const std::string& body, Scope& scope) {
    const DepthGuard guard(substitution_depth_, limits::kMaxExpressionNesting,
                           "substitutions ($(...) and ${...} inside each other)");
    return eval_text(body, scope).str();
  }

  void limits_check_value(std::size_t bytes) const {
    if (bytes > limits::kMaxValueBytes)
      throw Error(ErrorCode::ParseError, "a substituted text of " + std::to_string(bytes) +
                                             " bytes exceeds xacro's budget of " +
                                             std::to_string(limits::kMaxValueBytes) +
                                             " bytes per value");
  }

  // Counts one node of the expansion against the budgets of nodes, output size and time.
  void count(const XMLNode* node, std::size_t bytes) {
    if (++nodes_ > limits::kMaxNodes)
      fail(node, "the expansion exceeds xacro's budget of " + std::to_string(limits::kMaxNodes) +
                     " XML nodes (a macro that multiplies itself?)");
    output_bytes_ += bytes;
    if (output_bytes_ > limits::kMaxOutputBytes)
      fail(node, "the expansion exceeds xacro's budget of " +
                     std::to_string(limits::kMaxOutputBytes >> 20) + " MiB of text");
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() >
        limits::kMaxSeconds)
      fail(node, "the expansion takes longer than xacro's budget of " +
                     std::to_string(static_cast<int>(limits::kMaxSeconds)) + " s");
  }

  // The functions of ${...} that need the file being expanded: xacro.load_yaml (relative to this
  // file), xacro.arg, and the messages (xacro.warning, xacro.print_location, ...).
  HostCall host_in(Scope&) {
    return [this](const std::string& name, const std::vector<Value>& args) -> std::optional<Value> {
      const auto one_text = [&]() {
        if (args.size() != 1) throw Error(ErrorCode::ParseError, name + "() takes 1 argument");
        return args[0].str();
      };
      if (name == "xacro.load_yaml" || name == "load_yaml") {
        fs::path path(one_text());
        if (path.is_relative()) path = fs::path(file_).parent_path() / path;
        path = path.lexically_normal();
        if (name == "load_yaml")
          warn("Using load_yaml() directly is deprecated. Use xacro.load_yaml() instead.");
        if (std::find(included_.begin(), included_.end(), path.string()) == included_.end())
          included_.push_back(path.string());
        return load_yaml_file(path.string());
      }
      if (name == "xacro.arg") {
        const std::string arg = one_text();
        auto it = args_.find(arg);
        if (it == args_.end())
          throw Error(ErrorCode::ParseError,
                      "xacro.arg(" + quote(arg) + "): the argument is not set");
        return Value::of_string(it->second);
      }
      if (name == "xacro.warning" || name == "xacro.message" || name == "xacro.print_location") {
        std::string text;
        for (const Value& a : args) text += (text.empty() ? "" : " ") + a.str();
        warn(name == "xacro.print_location" ? "at " + place(nullptr) : text);
        return Value{};
      }
      if (name == "xacro.error" || name == "xacro.fatal") {
        std::string text;
        for (const Value& a : args) text += (text.empty() ? "" : " ") + a.str();
        throw Error(ErrorCode::ParseError, "the file reports an error: " + quote(text));
      }
      return std::nullopt;
    };
  }

  void warn(const std::string& message) {
    if (warn_) warn_(place(nullptr) + ": " + message);
  }

  void evaluate_attributes(XMLElement* e, Scope& scope) {
    for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
      const std::string value = a->Value();
      output_bytes_ += value.size();
      if (value.find('$') == std::string::npos) continue;
      try {
        e->SetAttribute(a->Name(), eval_text(value, scope).str().c_str());
      } catch (const PlacedError&) {
        throw;
      } catch (const Error& err) {
        fail(e, "attribute " + limits::clip(a->Name()) + ": " + err.message(), err.hint());
      }
    }
  }

  // ---- Elements
  // ---------------------------------------------------------------------------------- Moves the
  // children of `from` to after `at` (in order) and removes `at`.
  static void splice(XMLElement* from, XMLNode* at) {
    XMLNode* parent = at->Parent();
    XMLNode* after = at;
    while (XMLNode* child = from->FirstChild()) {
      parent->InsertAfterChild(after, child);
      after = child;
    }
    parent->DeleteChild(at);
  }
  // A detached element holding deep copies of `source`'s children (or of source itself).
  XMLElement* copy_of(const XMLElement* source, bool element_itself) {
    XMLElement* holder = new_holder("xacro-holder");
    if (element_itself) {
      holder->InsertEndChild(clone(source));
    } else {
      for (const XMLNode* child = source->FirstChild(); child; child = child->NextSibling())
        holder->InsertEndChild(clone(child));
    }
    return holder;
  }

  void process_children(XMLElement* parent, Scope& scope) {
    std::optional<DepthGuard> guard;
    try {
      guard.emplace(element_depth_, limits::kMaxElementDepth,
                    "elements (counting macro bodies and includes)");
    } catch (const Error& err) {
      fail(parent, err.message());
    }
    for (XMLNode* node = parent->FirstChild(); node;) {
      XMLNode* next = node->NextSibling();
      count(node, node->Value() ? std::char_traits<char>::length(node->Value()) : 0);
      if (tinyxml2::XMLText* text = node->ToText(); text && !text->CData()) {
        try {
          text->SetValue(eval_text(text->Value(), scope).str().c_str());
        } catch (const PlacedError&) {
          throw;
        } catch (const Error& err) {
          fail(line_of(parent) > 0 ? static_cast<const XMLNode*>(parent) : text, err.message(),
               err.hint());
        }
      } else if (XMLElement* e = node->ToElement()) {
        std::string local;
        if (is_xacro_element(e, local)) {
          try {
            xacro_element(e, local, scope);
          } catch (const PlacedError&) {
            throw;
          } catch (const Error& err) {
            fail(e, err.message(), err.hint());
          }
        } else {
          evaluate_attributes(e, scope);
          process_children(e, scope);
        }
      }
      node = next;
    }
  }

  void xacro_element(XMLElement* e, const std::string& local, Scope& scope) {
    if (local == "property") return define_property(e, scope);
    if (local == "arg") {
      const std::string name = required(e, "name");
      if (!args_.count(name)) args_[name] = eval_text(attribute(e, "default"), scope).str();
      e->Parent()->DeleteChild(e);
      return;
    }
    if (local == "macro") return define_macro(e, scope);
    if (local == "include") return include(e, scope);
    if (local == "if" || local == "unless") {
      const bool condition = boolean(eval_text(required(e, "value"), scope), e);
      if (condition == (local == "if")) {
        process_children(e, scope);
        XMLElement* holder = new_holder("xacro-holder");
        while (XMLNode* child = e->FirstChild()) holder->InsertEndChild(child);
        splice(holder, e);
        doc_.DeleteNode(holder);
      } else {
        e->Parent()->DeleteChild(e);
      }
      return;
    }
    if (local == "insert_block") {
      const std::string name = eval_text(required(e, "name"), scope).str();
      Property* p = scope.find_property(name);
      if (!p || !p->block)
        fail(e, "no block named " + quote(name) + " (a *" + limits::clip(name) +
                    " macro parameter or a block property)");
      XMLElement* holder = copy_of(p->block, p->insert_element_itself);
      process_children(holder, scope);
      splice(holder, e);
      doc_.DeleteNode(holder);
      return;
    }
    if (local == "element") {
      const std::string name = eval_text(required(e, (prefix_ + ":name").c_str()), scope).str();
      e->DeleteAttribute((prefix_ + ":name").c_str());
      e->SetName(name.c_str());
      evaluate_attributes(e, scope);
      process_children(e, scope);
      return;
    }
    if (local == "attribute") {
      XMLElement* owner = e->Parent() ? e->Parent()->ToElement() : nullptr;
      if (!owner) fail(e, "<" + prefix_ + ":attribute> needs an enclosing element");
      owner->SetAttribute(eval_text(required(e, "name"), scope).str().c_str(),
                          eval_text(required(e, "value"), scope).str().c_str());
      owner->DeleteChild(e);
      return;
    }
    if (local == "call") return call_macro(e, eval_text(required(e, "macro"), scope).str(), scope);
    return call_macro(e, local, scope);
  }

  // xacro's rule: booleans, the texts true/false, and numbers (non-zero is true).
  bool boolean(const Value& v, const XMLElement* e) const {
    if (v.kind == Value::Kind::Bool) return v.boolean;
    if (v.is_number()) return v.as_double() != 0.0;
    const Value parsed = v.kind == Value::Kind::String ? value_of_text(v.text) : v;
    if (parsed.kind == Value::Kind::Bool) return parsed.boolean;
    if (parsed.is_number()) return parsed.as_double() != 0.0;
    fail(e, "the condition " + quote(v.str()) + " is not a boolean (true/false, 1/0)");
  }

  void define_property(XMLElement* e, Scope& scope) {
    const std::string name = eval_text(required(e, "name"), scope).str();
    Scope* target = &scope;
    bool lazy = attribute(e, "lazy_eval") != "false";
    const std::string where = attribute(e, "scope");
    if (where == "global") {
      target = &scope.root();
      lazy = false;
    } else if (where == "parent" && scope.parent) {
      target = scope.parent;
      lazy = false;
    }
    Property p;
    p.home = target;
    const char* value = e->Attribute("value");
    const char* fallback = e->Attribute("default");
    if (value || fallback) {
      if (!value && target->find_property(name)) {  // default= only sets what is not set yet
        e->Parent()->DeleteChild(e);
        return;
      }
      p.raw = value ? value : fallback;
      if (!lazy) {
        const Value v = eval_text(p.raw, scope);
        p.value = stored(v.kind == Value::Kind::String ? value_of_text(v.text) : v);
      }
    } else {
      // A block property: its content is kept (detached, owned by the document).
      p.block = detach(e);
      target->properties[name] = p;
      return;
    }
    target->properties[name] = p;
    e->Parent()->DeleteChild(e);
  }

  // Unlinks an element from its parent and keeps it (the document frees it at the end).
  XMLElement* detach(XMLElement* e) {
    XMLElement* holder = new_holder("xacro-kept");
    holder->InsertEndChild(e);  // moving it unlinks it from where it was
    kept_.push_back(holder);
    return e;
  }

  void define_macro(XMLElement* e, Scope& scope) {
    auto macro = std::make_shared<Macro>();
    macro->name = eval_text(required(e, "name"), scope).str();
    macro->file = file_;
    std::istringstream words(attribute(e, "params"));
    for (std::string word; words >> word;) {
      Param param;
      if (word.rfind("**", 0) == 0) {
        param.kind = Param::Kind::BlockContent;
        word.erase(0, 2);
      } else if (word.rfind('*', 0) == 0) {
        param.kind = Param::Kind::Block;
        word.erase(0, 1);
      }
      if (const auto assign = word.find(":="); assign != std::string::npos) {
        std::string value = word.substr(assign + 2);
        word.erase(assign);
        if (value.rfind('^', 0) == 0) {
          param.inherit = true;
          if (value.size() > 1 && value[1] == '|') param.default_text = value.substr(2);
        } else {
          param.default_text = value;
        }
      }
      param.name = word;
      macro->params.push_back(param);
    }
    macro->body = detach(e);
    scope.macros[macro->name] = macro;
  }

  void call_macro(XMLElement* call, const std::string& name, Scope& scope) {
    const std::shared_ptr<Macro> macro = scope.find_macro(name);
    if (!macro)
      fail(call, "no macro named " + quote(name) +
                     " is defined before this use (nor is it a xacro element)");
    if (static_cast<int>(calls_.size()) >= kMaxDepth)
      fail(call, "macros and includes nest deeper than " + std::to_string(kMaxDepth) +
                     " levels (a macro that calls itself without end?)");
    // Unknown parameters first, as xacro reports them ("Invalid parameter").
    for (const tinyxml2::XMLAttribute* a = call->FirstAttribute(); a; a = a->Next()) {
      bool known =
          std::string(a->Name()) == "macro" && std::string(call->Name()) == prefix_ + ":call";
      for (const Param& param : macro->params) known = known || param.name == a->Name();
      if (!known) fail(call, "macro " + quote(name) + " has no parameter " + quote(a->Name()));
    }
    // As xacro: the blocks passed are expanded in the caller's scope first (an insert_block in
    // them names the caller's block, not the callee's parameter of the same name).
    process_children(call, scope);
    Scope inner;
    inner.parent = &scope;
    const XMLElement* next_block = call->FirstChildElement();
    for (const Param& param : macro->params) {
      Property p;
      p.home = &inner;
      if (param.kind != Param::Kind::Plain) {
        if (!next_block)
          fail(call, "macro " + quote(name) + " expects a block for its parameter " +
                         (param.kind == Param::Kind::Block ? "*" : "**") + param.name);
        p.block = next_block;
        p.insert_element_itself = param.kind == Param::Kind::Block;
        next_block = next_block->NextSiblingElement();
      } else if (const char* given = call->Attribute(param.name.c_str())) {
        const Value v = eval_text(given, scope);
        p.value = stored(v.kind == Value::Kind::String ? value_of_text(v.text) : v);
      } else if (param.inherit && scope.find_property(param.name)) {
        p.value = stored(lookup_value(param.name, scope));
      } else if (param.default_text) {
        const Value v = eval_text(*param.default_text, inner);
        p.value = stored(v.kind == Value::Kind::String ? value_of_text(v.text) : v);
      } else {
        fail(call,
             "macro " + quote(name) + " needs its parameter " + quote(param.name) +
                 (param.inherit ? " (:=^ found no property of that name in the caller's scope)"
                                : ""));
      }
      inner.properties[param.name] = p;
    }
    calls_.push_back("in macro " + quote(name) + " called at line " +
                     std::to_string(line_of(call)));
    XMLElement* holder = copy_of(macro->body, false);
    const std::string caller_file = file_;
    file_ = macro->file;
    process_children(holder, inner);
    file_ = caller_file;
    calls_.pop_back();
    splice(holder, call);
    doc_.DeleteNode(holder);
  }

  // The contents of an included file, copied into a holder of this document (the file's text and
  // tree are freed before its includes are read in turn).
  XMLElement* read_include(const XMLElement* e, const std::string& path,
                           std::string& included_prefix) {
    const std::string text = read_input_file(path, "the included file");
    tinyxml2::XMLDocument included;
    check_xml_attribute_counts(text, path);
    if (included.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS)
      throw Error(ErrorCode::ParseError, detail::describe_xml_error(included, path, "xacro file"));
    const XMLElement* root = included.RootElement();
    if (!root) fail(e, "the included file '" + path + "' has no root element");
    included_prefix = xacro_prefix(root);
    XMLElement* holder = new_holder("xacro-holder");
    for (const XMLNode* child = root->FirstChild(); child; child = child->NextSibling())
      holder->InsertEndChild(clone(child));
    return holder;
  }

  void include(XMLElement* e, Scope& scope) {
    std::string filename = eval_text(required(e, "filename"), scope).str();
    fs::path path(filename);
    if (path.is_relative()) path = fs::path(file_).parent_path() / path;
    path = path.lexically_normal();
    if (static_cast<int>(calls_.size()) >= kMaxDepth)
      fail(e, "includes nest deeper than " + std::to_string(kMaxDepth) +
                  " levels (a file that includes itself?)");
    if (std::find(included_.begin(), included_.end(), path.string()) == included_.end())
      included_.push_back(path.string());
    std::string included_prefix;
    XMLElement* holder = read_include(e, path.string(), included_prefix);
    const std::string ns = attribute(e, "ns");
    Scope inner;
    inner.parent = &scope;
    Scope& target = ns.empty() ? scope : inner;
    const std::string caller_file = file_;
    const std::string caller_prefix = prefix_;
    file_ = path.string();
    prefix_ = included_prefix;
    calls_.push_back("in " + limits::clip(path.filename().string()) + " included from line " +
                     std::to_string(line_of(e)));
    // Line numbers of the copies are lost: errors name the include and the file.
    process_children(holder, target);
    calls_.pop_back();
    file_ = caller_file;
    prefix_ = caller_prefix;
    if (!ns.empty()) {
      for (auto& [name, property] : inner.properties) {
        Property moved = property;
        if (!moved.value && !moved.block) {
          moved.value = lookup_value(name, inner);  // its scope ends here
        }
        moved.home = &scope;
        scope.properties[ns + "." + name] = moved;
      }
      for (auto& [name, macro] : inner.macros) scope.macros[ns + "." + name] = macro;
    }
    splice(holder, e);
    doc_.DeleteNode(holder);
  }

  tinyxml2::XMLDocument doc_;
  std::map<std::string, std::string> args_;
  std::function<std::optional<std::string>(const std::string&)> find_package_;
  std::function<void(const std::string&)> warn_;
  std::chrono::steady_clock::time_point started_;
  std::size_t nodes_ = 0;
  std::size_t output_bytes_ = 0;
  int element_depth_ = 0;
  std::unordered_map<const XMLNode*, int> lines_;
  int property_depth_ = 0;
  int substitution_depth_ = 0;
  std::size_t stored_bytes_ = 0;
  std::string file_;
  std::string prefix_ = "xacro";
  std::vector<std::string> calls_;
  std::vector<XMLElement*> kept_;

 public:
  std::vector<std::string> included_;
};
}  // namespace

bool is_xacro(const std::string& path, const std::string& text) {
  if (path.size() >= 6 && path.compare(path.size() - 6, 6, ".xacro") == 0) return true;
  // The namespace declaration is in the root element, near the start.
  const std::string head = text.substr(0, 4096);
  return head.find("wiki/xacro\"") != std::string::npos ||
         head.find("wiki/xacro'") != std::string::npos;
}

bool uses_xacro(const std::string& text) {
  if (text.find("${") != std::string::npos || text.find("$(") != std::string::npos ||
      text.find("<xacro:") != std::string::npos)
    return true;
  // Every prefix declared for the xacro namespace (xmlns:PREFIX="...xacro"), and its elements.
  bool declared = false;
  for (std::size_t at = text.find("xmlns:"); at != std::string::npos;
       at = text.find("xmlns:", at + 6)) {
    const std::size_t equals = text.find('=', at);
    if (equals == std::string::npos) break;
    const std::size_t open = text.find_first_of("\"'", equals);
    if (open == std::string::npos) break;
    const std::size_t close = text.find(text[open], open + 1);
    if (close == std::string::npos) break;
    if (!is_xacro_uri(text.substr(open + 1, close - open - 1).c_str())) continue;
    std::string prefix = text.substr(at + 6, equals - at - 6);
    while (!prefix.empty() && std::isspace(static_cast<unsigned char>(prefix.back())))
      prefix.pop_back();
    if (prefix.empty() || text.find("<" + prefix + ":") != std::string::npos) return true;
    declared = true;
  }
  // The namespace named some other way (a default namespace): expand, as before.
  return !declared && text.find("wiki/xacro") != std::string::npos;
}

std::string expand(const std::string& text, const std::string& path, const ExpandOptions& options,
                   std::vector<std::string>* included) {
  Expander expander(options);
  std::string out = expander.run(text, path);
  if (included) *included = expander.included_;
  return out;
}

}  // namespace kinetic::xacro
