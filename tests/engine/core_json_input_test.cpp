// json_input: the one strict pass every JSON reader makes before building a document, and
// printable(): names from files made safe for messages.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "engine/core/error.hpp"
#include "engine/core/json_input.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/trajectory/trajectory_io.hpp"

namespace kinetic {
namespace {

std::string nested(std::size_t levels) {
  return std::string(levels, '[') + std::string(levels, ']');
}

TEST(JsonInput, NestingPastTheLimitIsRefusedBeforeADocumentIsBuilt) {
  EXPECT_TRUE(check_json_text(nested(kMaxJsonNesting)).malformed.empty());
  // One more level, or 100,000 (which overflowed the stack in nlohmann's recursive dump).
  for (const std::size_t levels : {kMaxJsonNesting + 1, std::size_t{100000}}) {
    const JsonTextCheck check = check_json_text(nested(levels));
    EXPECT_NE(check.malformed.find("nest more than 256 levels deep"), std::string::npos)
        << check.malformed;
  }
  // Brackets inside strings are text, not nesting.
  EXPECT_TRUE(check_json_text("{\"a\": \"" + nested(1000) + "\"}").malformed.empty());
}

TEST(JsonInput, SyntaxAndNumberOverflowAreMalformedInPlainWords) {
  const JsonTextCheck tab = check_json_text("{\"a\": \"x\ty\"}");
  EXPECT_EQ(tab.malformed.rfind("line 1, column 9: syntax error", 0), 0u) << tab.malformed;
  // The text nlohmann quotes ("last read") comes back printable: a DEL is valid inside a string.
  const JsonTextCheck del = check_json_text("[\"a\x7f");
  EXPECT_NE(del.malformed.find("\\u007f"), std::string::npos) << del.malformed;
  EXPECT_EQ(del.malformed.find('\x7f'), std::string::npos);
  const JsonTextCheck overflow = check_json_text("[1e400]");
  EXPECT_NE(overflow.malformed.find("number overflow parsing '1e400'"), std::string::npos)
      << overflow.malformed;
  EXPECT_EQ(overflow.malformed.find("json.exception"), std::string::npos);
  // Well-formed text parses whenever the check passes.
  const std::string fine = R"({"a": [1, {"b": null}], "c": "]["})";
  EXPECT_TRUE(check_json_text(fine).malformed.empty());
  EXPECT_EQ(nlohmann::json::parse(fine).size(), 2u);
}

TEST(JsonInput, TheFirstDuplicateIsReportedAndTheRestOfTheTextStillChecked) {
  // A duplicate does not end the pass: a session warns about it and must still refuse the depth.
  const JsonTextCheck both = check_json_text("{\"k\": 1, \"k\": 2, \"deep\": " + nested(300) + "}");
  ASSERT_TRUE(both.duplicate.has_value());
  EXPECT_EQ(both.duplicate->path, "top level");
  EXPECT_EQ(both.duplicate->key, "k");
  EXPECT_FALSE(both.malformed.empty());
  // Keys and paths with control characters come back printable.
  const JsonTextCheck nul = check_json_text(R"({"a\u0000b": {"x": 1, "x": 2}})");
  ASSERT_TRUE(nul.duplicate.has_value());
  EXPECT_EQ(nul.duplicate->path, "a\\u0000b");
  EXPECT_FALSE(
      check_json_text(R"({"k": {"k": 1}, "j": [{"k": 1}, {"k": 2}]})").duplicate.has_value());
}

TEST(JsonInput, AnObjectOfManyKeysIsCheckedInLinearTime) {
  // The duplicate check searched each object's keys linearly: 100,000 distinct keys (a 1 MB
  // file) took minutes, every reader's load hung. Found by fuzzing.
  std::string many = "{";
  for (int i = 0; i < 100000; ++i) many += (i ? ",\"k" : "\"k") + std::to_string(i) + "\": 0";
  // (No clock: a quadratic pass takes minutes here and fails by the test's timeout.)
  EXPECT_FALSE(check_json_text(many + "}").duplicate);
  // Duplicates are still found on both sides of the switch to hashing, and a reused frame forgets.
  for (const int first : {0, 31, 32, 99999}) {
    const JsonTextCheck check = check_json_text(many + ", \"k" + std::to_string(first) + "\": 1}");
    ASSERT_TRUE(check.duplicate);
    EXPECT_EQ(check.duplicate->key, "k" + std::to_string(first));
    EXPECT_EQ(check.duplicate->path, "top level");
  }
  EXPECT_FALSE(check_json_text("[" + many + "}, " + many + "}]").duplicate);
}

TEST(PrintableText, EscapesControlCharactersAndKeepsUtf8) {
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\u0000b");
  EXPECT_EQ(printable("tab\there\nnew\rret\x1b\x7f"), "tab\\there\\nnew\\rret\\u001b\\u007f");
  EXPECT_EQ(printable("Gelenk ü → 关节"), "Gelenk ü → 关节");
}

TEST(JsonInput, SceneAndTrajectoryFilesRefuseDeepNestingAndPrintOddKeys) {
  const std::string deep_scene =
      R"({"format": "kinetic-scene", "version": 1, "obstacles": )" + nested(5000) + "}";
  try {
    (void)scene_from_json(deep_scene, "deep.json");
    ADD_FAILURE() << "a scene 5000 levels deep loaded";
  } catch (const Error& error) {
    EXPECT_NE(
        error.message().find("deep.json: malformed JSON: arrays and objects nest more than 256"),
        std::string::npos)
        << error.message();
  }
  try {
    (void)trajectory_from_json(R"({"samples": )" + nested(5000) + "}", "deep.json");
    ADD_FAILURE() << "a trajectory 5000 levels deep loaded";
  } catch (const Error& error) {
    EXPECT_NE(error.message().find("malformed JSON: arrays and objects nest more than 256"),
              std::string::npos)
        << error.message();
  }
  try {
    (void)scene_from_json(R"({"format": "kinetic-scene", "version": 1, "bad\u0007key": 1})",
                          "bell.json");
    ADD_FAILURE() << "an unknown key loaded";
  } catch (const Error& error) {
    EXPECT_NE(error.message().find("unknown key \"bad\\u0007key\""), std::string::npos)
        << error.message();
  }
}

}  // namespace
}  // namespace kinetic
