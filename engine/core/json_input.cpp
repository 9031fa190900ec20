#include "engine/core/json_input.hpp"

#include <nlohmann/json.hpp>

#include <set>
#include <vector>

namespace kinetic {

namespace {

using nlohmann::json;

// Parser callback: one frame per open object or array; the path is built only when a duplicate
// is found, which stops the parse.
class DuplicateKeyFinder {
 public:
  struct Found {};

  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: frames_.push_back({true, 0, {}, {}}); break;
      case json::parse_event_t::array_start: frames_.push_back({false, 0, {}, {}}); break;
      case json::parse_event_t::key: {
        Frame& frame = frames_.back();
        frame.key = parsed.get_ref<const std::string&>();
        if (!frame.keys.insert(frame.key).second) {
          result_ = DuplicateJsonKey{path(), frame.key};
          throw Found{};
        }
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        element_done();
        break;
      case json::parse_event_t::value: element_done(); break;
    }
    return true;
  }

  std::optional<DuplicateJsonKey>& result() { return result_; }

 private:
  struct Frame {
    bool object;
    std::size_t index;           // arrays: the element being read
    std::string key;             // objects: the member being read
    std::set<std::string> keys;  // objects: keys seen so far
  };

  void element_done() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }

  // The innermost object's path: "obstacles[0].shape", or "top level".
  std::string path() const {
    std::string out;
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on "." + key.
      if (f.object) {
        if (!out.empty()) out.push_back('.');
        out.append(f.key);
      } else {
        out.append("[").append(std::to_string(f.index)).append("]");
      }
    }
    return out.empty() ? "top level" : out;
  }

  std::vector<Frame> frames_;
  std::optional<DuplicateJsonKey> result_;
};

}  // namespace

std::optional<DuplicateJsonKey> find_duplicate_json_key(const std::string& text) {
  DuplicateKeyFinder finder;
  try {
    // The callback is copied into the parser: it reports through a reference.
    const json parsed = json::parse(
        text, [&finder](int depth, json::parse_event_t event, json& value) { return finder(depth, event, value); },
        /*allow_exceptions=*/false);
    (void)parsed;
  } catch (const DuplicateKeyFinder::Found&) {
  }
  return finder.result();
}

std::string plain_json_message(const std::string& what) {
  std::string text = what;
  if (text.rfind("[json.exception.", 0) == 0) {
    const std::size_t end = text.find("] ");
    if (end != std::string::npos) text.erase(0, end + 2);
  }
  for (const char* prefix : {"parse error at ", "parse error: "})
    if (text.rfind(prefix, 0) == 0) return text.substr(std::string(prefix).size());
  return text;
}

}  // namespace kinetic
