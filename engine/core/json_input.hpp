#pragma once
// Reading JSON that people write (scene, job, session and trajectory files).
// - Keys given twice in one object: JSON parsers (nlohmann, Qt) silently keep one of the values,
//   so a file with two "steps" or two "size" entries would load half of what was written. Scene,
//   job and trajectory files refuse them, naming where; sessions warn.
// - nlohmann's exception texts, without their tags, for messages a user reads.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace kinetic {

struct DuplicateJsonKey {
  std::string path;  // the object holding it: "top level", "steps[1].goal", "obstacles[0].shape"
  std::string key;
};

// The first repeated key of `text` in document order; nullopt when there is none, and also when
// `text` is not valid JSON (the caller's own parser reports that with line and column).
std::optional<DuplicateJsonKey> find_duplicate_json_key(const std::string& text);

// json::parse in one pass that also finds the first repeated key: the document, or (with
// `duplicate` set) a null one. Malformed JSON throws as json::parse does.
nlohmann::json parse_json_refusing_duplicates(const std::string& text, std::optional<DuplicateJsonKey>& duplicate);

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
// as "line 1, column 5: syntax error ..." (and "number overflow parsing '1e400'" for an
// out_of_range): the tag and the "parse error at" lead-in mean nothing to a user.
std::string plain_json_message(const std::string& what);

}  // namespace kinetic
