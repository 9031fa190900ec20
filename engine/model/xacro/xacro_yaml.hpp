#pragma once
// xacro.load_yaml: a YAML file as a value of xacro expressions — mappings as dicts, sequences as
// lists, scalars typed as PyYAML's safe loader types them (null, booleans, ints, floats with a
// '.', strings), plus xacro's !radians and !degrees tags. Read with yaml-cpp.
#include <string>

#include "engine/model/xacro/xacro_expression.hpp"

namespace kinetic::xacro {

// Throws Error(ParseError) naming the file and line on bad YAML; see read_input_file for the rest.
Value load_yaml_file(const std::string& path);

// One plain YAML scalar typed as PyYAML types it ("1" -> int, "1.5" -> float, "yes" -> bool, ...).
Value value_of_yaml_scalar(const std::string& text);

}  // namespace kinetic::xacro
