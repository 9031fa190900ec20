#pragma once
// Expands xacro robot descriptions (ROS's XML macro language) to plain URDF/SRDF text, so a
// robot package's *.urdf.xacro opens directly. Debian carries no xacro (it is a ROS Python tool),
// so this is our own; it covers what robot packages use, as ROS 2's xacro expands it:
//   xacro:property (value, default, block properties, scope="parent"/"global", lazy evaluation),
//   xacro:arg and $(arg NAME), xacro:macro with plain, default (:=), inherited (:=^, :=^|default)
//   and block (*name, **name) parameters, xacro:insert_block, xacro:include (relative paths,
//   $(find PACKAGE), ns="..."), xacro:if / xacro:unless, xacro:element, xacro:attribute,
//   xacro:call, ${expression} (xacro_expression.hpp) with $(...) inside it, xacro.load_yaml,
//   xacro.arg, xacro.warning / xacro.message / xacro.print_location / xacro.error, $(find),
//   $(arg), $(env), $(optenv), $(dirname), $(eval), and $$ escapes.
// Every error is kinetic::Error(ParseError) naming the file and line; depth, size and time are
// bounded (xacro_limits.hpp), and included files must be regular files of a bounded size.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kinetic::xacro {

struct ExpandOptions {
  std::map<std::string, std::string> args;  // xacro:arg values (the command line's NAME:=VALUE)
  // Folder of a package for $(find NAME), nullopt when it is not found.
  std::function<std::optional<std::string>(const std::string& name)> find_package;
  // Receives the file's own messages (xacro.warning, deprecations), "FILE:LINE: text"; dropped
  // when unset.
  std::function<void(const std::string& message)> warn;
};

// Whether a robot file is xacro: its name ends in .xacro, or it declares the xacro namespace.
bool is_xacro(const std::string& path, const std::string& text);
// Whether expanding `text` could change it: an element in a namespace prefix bound to xacro, or a
// ${...} or $(...) substitution. A URDF that xacro wrote keeps the namespace declaration and
// nothing else of xacro; read as it is, its messages then give the file's own line numbers.
bool uses_xacro(const std::string& text);

// Expands the xacro document `text`, read from `path` (relative includes and $(dirname) are
// taken from its folder; it names the file in messages). `included`, when given, receives the
// files the expansion included, YAML files too (absolute, each once, in the order read).
std::string expand(const std::string& text, const std::string& path,
                   const ExpandOptions& options = {}, std::vector<std::string>* included = nullptr);

}  // namespace kinetic::xacro
