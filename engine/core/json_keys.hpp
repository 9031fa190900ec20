#pragma once
// JSON objects whose key appears twice: JSON parsers (nlohmann, Qt) silently keep one of the
// values, so a file with two "steps" or two "size" entries would load half of what was written.
// Scene files and job files refuse them, naming where.
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

}  // namespace kinetic
