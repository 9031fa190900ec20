#pragma once
// Reading JSON that people write (scene, job, session and trajectory files).
// - Keys given twice in one object: JSON parsers (nlohmann, Qt) silently keep one of the values,
//   so a file with two "steps" or two "size" entries would load half of what was written. Scene,
//   job and trajectory files refuse them, naming where; sessions warn.
// - Nesting: nlohmann parses any depth, but dumping, copying or comparing a document recurses once
//   per level (100,000 nested arrays in a session's scene overflowed the stack). Deeper than
//   kMaxJsonNesting is refused before a document is built.
// - Strict syntax for every reader: Qt's parser (job files) takes a raw tab inside a string,
//   which RFC 8259 and nlohmann refuse.
// - nlohmann's exception texts, without their tags, for messages a user reads.
#include <cstddef>
#include <optional>
#include <string>

namespace kinetic {

constexpr std::size_t kMaxJsonNesting = 256;

struct DuplicateJsonKey {  // both printable (control characters escaped)
  std::string path;  // the object holding it: "top level", "steps[1].goal", "obstacles[0].shape"
  std::string key;
};

struct JsonTextCheck {
  // Why no document should be built from the text, in json::parse's words without its tags
  // ("line 2, column 18: syntax error ..."), or the nesting limit; empty when the text is fine.
  std::string malformed;
  std::optional<DuplicateJsonKey> duplicate;  // the first key given twice in one object
};

// One pass over `text` that builds no document (a little less than one json::parse). When
// `malformed` is empty, json::parse(text) succeeds.
JsonTextCheck check_json_text(const std::string& text);

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
// as "line 1, column 5: syntax error ..." (and "number overflow parsing '1e400'" for an
// out_of_range): the tag and the "parse error at" lead-in mean nothing to a user. Control
// characters it quotes are escaped (printable()).
std::string plain_json_message(const std::string& what);

}  // namespace kinetic
