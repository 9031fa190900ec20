#pragma once
// Internal to engine/model: readable tinyxml2 error messages ("SOURCE:LINE: malformed XML: ...").
#include <tinyxml2.h>

#include <string>

namespace kinetic::detail {

inline std::string describe_xml_error(const tinyxml2::XMLDocument& doc, const std::string& source,
                                      const std::string& what) {
  std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
  // tinyxml2: "Error=NAME ErrorID=N (0xN) Line number=L: detail" -> "detail"
  if (const auto colon = detail.find(": ", detail.find("Line number="));
      colon != std::string::npos && detail.find("Line number=") != std::string::npos)
    detail = detail.substr(colon + 2);
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
    case tinyxml2::XML_ERROR_EMPTY_DOCUMENT:
      reason = "the document is empty";
      break;
    default:
      reason = doc.ErrorName();
      break;
  }
  if (!detail.empty() && detail != reason) reason += " (" + detail + ")";
  return source + ":" + std::to_string(doc.ErrorLineNum()) + ": malformed " + what + ": " + reason;
}

}  // namespace kinetic::detail
