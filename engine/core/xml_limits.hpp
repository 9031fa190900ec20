#pragma once
// Limits checked on XML text before tinyxml2 parses it: tinyxml2 looks for a duplicate of every
// attribute among those before it, so 100,000 attributes on one element took minutes (a hang to
// the user). Real robot files and meshes carry a handful per element.
#include <cstddef>
#include <string>

namespace kinetic {

constexpr std::size_t kMaxXmlAttributes = 1000;  // on one element

// Throws Error(ParseError) naming `source` and the line of the first element with more than
// kMaxXmlAttributes attributes. Comments, CDATA, declarations and quoted values are skipped.
void check_xml_attribute_counts(const std::string& text, const std::string& source);

}  // namespace kinetic
