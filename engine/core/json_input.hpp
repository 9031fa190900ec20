#pragma once
// Reading JSON that people write (scene, job, session and trajectory files).
// - Keys given twice in one object: JSON parsers (nlohmann, Qt) silently keep one of the values,
//   so a file with two "steps" or two "size" entries would load half of what was written. Scene
//   files and job files refuse them, naming where.
// - nlohmann's exception texts, without their tags, for messages a user reads.
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

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
// as "line 1, column 5: syntax error ..." (and "number overflow parsing '1e400'" for an
// out_of_range): the tag and the "parse error at" lead-in mean nothing to a user.
std::string plain_json_message(const std::string& what);

}  // namespace kinetic
