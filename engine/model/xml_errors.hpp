#pragma once
// Internal to engine/model: readable tinyxml2 error messages ("SOURCE:LINE: malformed XML: ...").
#include <tinyxml2.h>

#include <string>

#include "engine/core/error.hpp"
#include "engine/core/xml_limits.hpp"

namespace kinetic::detail {

inline std::string describe_xml_error(const tinyxml2::XMLDocument& doc, const std::string& source,
                                      const std::string& what) {
  if (doc.ErrorID() == tinyxml2::XML_ERROR_EMPTY_DOCUMENT)
    return source + ": the file is empty (or holds only a declaration or comments): no " + what;
  std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
  // tinyxml2: "Error=NAME ErrorID=N (0xN) Line number=L: detail" -> "detail"; with no detail
  // after the line number there is nothing a user needs in it.
  if (const auto line = detail.find("Line number="); line != std::string::npos) {
    const auto colon = detail.find(": ", line);
    detail = colon == std::string::npos ? std::string() : detail.substr(colon + 2);
  }
  std::string reason;
  switch (doc.ErrorID()) {
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
      reason = "this element is not closed by its matching end tag";
      break;
    case tinyxml2::XML_ERROR_PARSING_ELEMENT:
      reason = "an element is cut short or not closed";
      break;
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE:
      reason = "an attribute is malformed (name=\"value\" expected)";
      break;
    default:
      reason = doc.ErrorName();
      break;
  }
  if (!detail.empty() && detail != reason) reason += " (" + detail + ")";
  return source + ":" + std::to_string(doc.ErrorLineNum()) + ": malformed " + what + ": " + reason;
}

// Parses `xml` into `doc`; Error(ParseError) for malformed XML (naming the line) and for a file
// with no element at all (empty, or only a declaration and comments).
inline void parse_xml(tinyxml2::XMLDocument& doc, const std::string& xml, const std::string& source,
                      const std::string& what) {
  check_xml_attribute_counts(xml, source);
  if (doc.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS) {
    if (doc.ErrorID() == tinyxml2::XML_ERROR_EMPTY_DOCUMENT)
      throw Error(ErrorCode::ParseError, describe_xml_error(doc, source, what),
                  "check that this is the right file");
    throw Error(ErrorCode::ParseError, describe_xml_error(doc, source, what),
                "fix the XML syntax at that line");
  }
  if (!doc.RootElement())
    throw Error(
        ErrorCode::ParseError,
        source + ": the file is empty (or holds only a declaration or comments): no " + what,
        "check that this is the right file");
}

}  // namespace kinetic::detail
