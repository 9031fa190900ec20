#pragma once
// Writes a generated allowed-collision matrix into a robot's kinetic.toml as [collision]
// skip_pairs, the way a person would edit the file: only the skip_pairs entry (and the comment
// line this writer put above it) is replaced or added; every other key, table and comment stays
// byte for byte. Regenerating replaces the previous list, as MoveIt's Setup Assistant does.
#include <filesystem>
#include <string>

#include "engine/collision/acm_generator.hpp"

namespace kinetic {

// The kinetic.toml text with [collision] skip_pairs set to the result's disabled pairs (a
// [collision] table is appended when there is none). `source` names the text in errors. Throws
// Error(ParseError) for malformed TOML (source:line) and Error(InvalidValue) when [collision] is
// written inline or with dotted keys (say where to edit by hand).
std::string with_generated_skip_pairs(const std::string& toml_text,
                                      const AcmGeneratorResult& result,
                                      const std::string& source = "<kinetic.toml string>");

// Reads the file (a missing file starts empty), sets skip_pairs as above, checks that the new text
// still parses as a kinetic.toml and writes it atomically: on any error the file is untouched.
void save_generated_skip_pairs(const std::filesystem::path& toml_path,
                               const AcmGeneratorResult& result);

}  // namespace kinetic
