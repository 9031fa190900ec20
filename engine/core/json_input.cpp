#include "engine/core/json_input.hpp"

#include <nlohmann/json.hpp>

#include "engine/core/printable_text.hpp"

#include <algorithm>
#include <unordered_set>
#include <vector>

namespace kinetic {

namespace {

using nlohmann::json;

// SAX handler: one frame per open object or array, no document built. It stops at a syntax error
// or past kMaxJsonNesting levels, and notes the first repeated key. nlohmann's callback
// parser, which could check keys while building the document, took four times json::parse on a
// large trajectory; this pass takes a little less than one parse (bench_trajectory_bench,
// trajectory_json_import: a 3.6 MB import goes from 32 to 55 ms with it). The path is built
// only when a duplicate is found. Frames are reused, so their key lists
// keep their storage across the thousands of small sample objects of a trajectory.
class JsonTextChecker {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(number_integer_t) { return value(); }
  bool number_unsigned(number_unsigned_t) { return value(); }
  bool number_float(number_float_t, const string_t&) { return value(); }
  bool string(string_t&) { return value(); }
  bool binary(binary_t&) { return value(); }
  bool start_object(std::size_t) { return open(true); }
  bool start_array(std::size_t) { return open(false); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(string_t& name) {
    Frame& frame = frames_[depth_ - 1];
    frame.key = name;
    if (!frame.insert(name) && !result_.duplicate)
      result_.duplicate = DuplicateJsonKey{path(), printable(name)};
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& error) {
    result_.malformed = plain_json_message(error.what());
    return false;
  }

  JsonTextCheck& result() { return result_; }

 private:
  struct Frame {
    bool object = false;
    std::size_t index = 0;                 // arrays: the element being read
    std::string key;                       // objects: the member being read
    std::vector<std::string> keys;         // objects: keys seen so far (the first kSmallObject)
    std::unordered_set<std::string> many;  // objects with more keys: all of them, hashed
    // Whether `name` is new in this object. A linear search suits the small objects that make up
    // nearly every file (a trajectory's samples); past kSmallObject keys a hash set takes over,
    // or an object of n keys would cost n^2 / 2 comparisons (100,000 keys, a 1 MB file: minutes).
    bool insert(const std::string& name) {
      if (many.empty()) {
        if (std::find(keys.begin(), keys.end(), name) != keys.end()) return false;
        if (keys.size() < kSmallObject) {
          keys.push_back(name);
          return true;
        }
        many.insert(keys.begin(), keys.end());
      }
      return many.insert(name).second;
    }
    void clear() {
      keys.clear();
      if (!many.empty()) many = {};
    }
  };
  static constexpr std::size_t kSmallObject = 32;

  bool open(bool object) {
    if (depth_ == kMaxJsonNesting) {
      result_.malformed = "arrays and objects nest more than " + std::to_string(kMaxJsonNesting) +
                          " levels deep (Kinetic's files nest a few levels)";
      return false;  // stops the parse
    }
    if (depth_ == frames_.size()) frames_.emplace_back();
    Frame& frame = frames_[depth_++];
    frame.object = object;
    frame.index = 0;
    frame.clear();
    return true;
  }
  bool close() {
    --depth_;
    return value();
  }
  bool value() {  // an element of the enclosing array is complete
    if (depth_ > 0 && !frames_[depth_ - 1].object) ++frames_[depth_ - 1].index;
    return true;
  }

  // The innermost object's path: "obstacles[0].shape", or "top level".
  std::string path() const {
    std::string out;
    for (std::size_t i = 0; i + 1 < depth_; ++i) {
      const Frame& f = frames_[i];
      // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on "." + key.
      if (f.object) {
        if (!out.empty()) out.push_back('.');
        out.append(printable(f.key));
      } else {
        out.append("[").append(std::to_string(f.index)).append("]");
      }
    }
    return out.empty() ? "top level" : out;
  }

  std::vector<Frame> frames_;
  std::size_t depth_ = 0;
  JsonTextCheck result_;
};

}  // namespace

JsonTextCheck check_json_text(const std::string& text) {
  JsonTextChecker checker;
  json::sax_parse(text, &checker);
  return checker.result();
}

std::string plain_json_message(const std::string& what) {
  std::string text = what;
  if (text.rfind("[json.exception.", 0) == 0) {
    const std::size_t end = text.find("] ");
    if (end != std::string::npos) text.erase(0, end + 2);
  }
  for (const char* prefix : {"parse error at ", "parse error: "})
    if (text.rfind(prefix, 0) == 0) text.erase(0, std::string(prefix).size());
  // "last read: '...'" quotes the text as it is: a DEL (valid in a JSON string) came out raw.
  return printable(text);
}

}  // namespace kinetic
