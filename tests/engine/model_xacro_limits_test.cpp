// xacro on hostile input (issue 41): integers as Python's or a clear error, never a trap; no
// recursion on input depth; budgets on expansion size and time; included files that are not
// regular files refused; messages that quote only a little of the input. Every case also asserts
// a generous wall-time bound: each must stop at once, not after eating memory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "engine/model/xacro/xacro_expression.hpp"
#include "engine/model/xacro/xacro_processor.hpp"
#include "engine/model_test_helpers.hpp"

namespace kinetic {
namespace {

using test::expect_error;
using test::TempDir;
using ::testing::HasSubstr;

std::string eval_limited(const std::string& expression) {
  return xacro::evaluate(expression, [](const std::string&) { return std::nullopt; }).str();
}

constexpr const char* kLimitsHeader =
    "<?xml version=\"1.0\"?>\n<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n";

std::string expand_hostile(const std::string& body, const std::string& path = "/tmp/hostile.urdf.xacro") {
  return xacro::expand(std::string(kLimitsHeader) + body + "</robot>\n", path);
}

// The error of `f`, which must come within `seconds`.
template <typename F>
Error quick_error(F&& f, double seconds = 5.0) {
  const auto start = std::chrono::steady_clock::now();
  Error e = expect_error(std::forward<F>(f), ErrorCode::ParseError);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
            seconds)
      << e.message();
  return e;
}

TEST(XacroLimits, IntegersArePythonsOrAClearErrorNeverATrap) {
  // Python: (-2**63) % -1 == 0; its // -1 is 2**63, beyond 64 bits.
  EXPECT_EQ(eval_limited("(-9223372036854775807 - 1) % -1"), "0");
  EXPECT_EQ(eval_limited("-9223372036854775807 - 1"), "-9223372036854775808");
  EXPECT_EQ(eval_limited("-7 % -1"), "0");
  EXPECT_EQ(eval_limited("7 % -3"), "-2");
  EXPECT_EQ(eval_limited("2 ** 62"), "4611686018427387904");
  EXPECT_EQ(eval_limited("3 ** 39"), "4052555153018976267");
  EXPECT_EQ(eval_limited("9223372036854775807 + 0"), "9223372036854775807");
  for (const char* overflow :
       {"(-9223372036854775807 - 1) // -1", "1+33333333333333*33233335*1",
        "9223372036854775807 + 1", "-9223372036854775807 - 2", "2 ** 63", "10 ** 100",
        "-(-9223372036854775807 - 1)", "abs(-9223372036854775807 - 1)", "99999999999999999999",
        "int(1e300)", "floor(1e19)", "round(-1e19)", "sum([9223372036854775807, 1])"}) {
    const Error e = quick_error([&] { eval_limited(overflow); });
    EXPECT_THAT(e.message(), HasSubstr("integer too large")) << overflow;
  }
  EXPECT_THAT(quick_error([] { eval_limited("int(float('nan'))"); }).message(), HasSubstr("NaN"));
  EXPECT_THAT(quick_error([] { eval_limited("7 // 0"); }).message(), HasSubstr("division by zero"));
  EXPECT_THAT(quick_error([] { eval_limited("7 % 0"); }).message(), HasSubstr("modulo by zero"));
  // In a file: the message names the file and line.
  const Error e = quick_error(
      [] { expand_hostile("<link name=\"x\"/>\n<link name=\"${(-9223372036854775807 - 1) // -1}\"/>\n"); });
  EXPECT_THAT(e.message(), HasSubstr("/tmp/hostile.urdf.xacro:4"));
  EXPECT_THAT(e.message(), HasSubstr("integer too large"));
}

TEST(XacroLimits, DeepExpressionsAreAnErrorAndLongChainsWork) {
  // 30,000 terms in a row are a chain, not a nesting: evaluated in a loop.
  std::string sum = "1";
  for (int i = 0; i < 30000; ++i) sum += "+1";
  EXPECT_EQ(eval_limited(sum), "30001");
  std::string conjunction = "1";
  for (int i = 0; i < 30000; ++i) conjunction += " and 1";
  EXPECT_EQ(eval_limited(conjunction), "1");
  const auto nested = [](const std::string& open, const std::string& inner,
                         const std::string& close, int n) {
    std::string text;
    for (int i = 0; i < n; ++i) text += open;
    text += inner;
    for (int i = 0; i < n; ++i) text += close;
    return text;
  };
  const auto repeated = [](const std::string& text, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += text;
    return out;
  };
  EXPECT_EQ(eval_limited(nested("(", "1", ")", 90)), "1");
  EXPECT_EQ(eval_limited(nested("-", "1", "", 51)), "-1");
  for (const std::string& deep :
       {nested("(", "1", ")", 10000), nested("-", "1", "", 30000), nested("not ", "1", "", 30000),
        nested("[", "1", "]", 10000), nested("abs(", "1", ")", 10000),
        "[1]" + repeated("[0]", 30000), "2" + repeated("**2", 30000),
        "'a'" + repeated(".upper()", 30000)}) {
    const Error e = quick_error([&] { eval_limited(deep); });
    EXPECT_THAT(e.message(), HasSubstr("nests deeper than 100 levels"));
    EXPECT_LT(e.message().size(), 300u) << "the message quotes the whole input";
  }
  // $(...) inside $(...) and ${...}: each level is a substitution inside a substitution.
  for (const std::string& text :
       {nested("$(", "arg a", ")", 30000), nested("${$(", "arg a", ")}", 30000)}) {
    const Error deep = quick_error([&] { expand_hostile("<link name=\"" + text + "\"/>\n"); });
    EXPECT_THAT(
        deep.message(),
        HasSubstr(
            "substitutions ($(...) and ${...} inside each other) nest deeper than 100 levels"));
    EXPECT_THAT(deep.message(), HasSubstr("/tmp/hostile.urdf.xacro:3"));
  }
  const Error e =
      quick_error([&] { expand_hostile("<link name=\"${" + nested("(", "1", ")", 10000) + "}\"/>\n"); });
  EXPECT_THAT(e.message(), HasSubstr("/tmp/hostile.urdf.xacro:3"));
}

TEST(XacroLimits, RecursionThroughMacrosPropertiesAndIncludesStops) {
  // A macro calling itself with a growing argument: stopped by size or depth, at once.
  Error e = quick_error([] {
    expand_hostile(
        "<xacro:macro name=\"grow\" params=\"s\">\n<xacro:grow "
        "s=\"${s}${s}\"/>\n</xacro:macro>\n<xacro:grow s=\"ab\"/>\n");
  });
  EXPECT_THAT(e.message(), HasSubstr("/tmp/hostile.urdf.xacro"));
  EXPECT_THAT(e.message(), HasSubstr("budget"));
  // A property chain deeper than the budget.
  std::string chain = "<xacro:property name=\"p0\" value=\"1\"/>\n";
  for (int i = 1; i <= 5000; ++i)
    chain += "<xacro:property name=\"p" + std::to_string(i) + "\" value=\"${p" +
             std::to_string(i - 1) + "}\"/>\n";
  e = quick_error([&] { expand_hostile(chain + "<link name=\"${p5000}\"/>\n"); });
  EXPECT_THAT(e.message(), HasSubstr("nest deeper than 200 levels"));
  // Lists wrapped in lists through properties evaluated at once: each value is copied, compared
  // and printed recursively, so their nesting is bounded too.
  std::string wrapped = "<xacro:property name=\"w0\" value=\"${[0]}\" lazy_eval=\"false\"/>\n";
  for (int i = 1; i <= 5000; ++i)
    wrapped += "<xacro:property name=\"w" + std::to_string(i) + "\" value=\"${[w" +
               std::to_string(i - 1) + "]}\" lazy_eval=\"false\"/>\n";
  e = quick_error([&] { expand_hostile(wrapped); });
  EXPECT_THAT(e.message(), HasSubstr("lists and dicts nest deeper than 100 levels"));
  EXPECT_THAT(e.message(), HasSubstr("/tmp/hostile.urdf.xacro:103"));
  // A file including itself.
  TempDir dir;
  const auto self =
      dir.write("self.urdf.xacro",
                std::string(kLimitsHeader) + "<xacro:include filename=\"self.urdf.xacro\"/>\n</robot>\n");
  e = quick_error([&] {
    xacro::expand(
        std::string(kLimitsHeader) + "<xacro:include filename=\"self.urdf.xacro\"/>\n</robot>\n",
        self.string());
  });
  EXPECT_THAT(e.message(), HasSubstr("nest deeper than"));
}

TEST(XacroLimits, ExpansionSizeHasABudget) {
  // A macro doubling 30 times: 2^30 links.
  std::string doubling = "<xacro:macro name=\"d0\" params=\"\"><link name=\"l\"/></xacro:macro>\n";
  for (int i = 1; i <= 30; ++i)
    doubling += "<xacro:macro name=\"d" + std::to_string(i) + "\" params=\"\"><xacro:d" +
                std::to_string(i - 1) + "/><xacro:d" + std::to_string(i - 1) + "/></xacro:macro>\n";
  Error e = quick_error([&] { expand_hostile(doubling + "<xacro:d30/>\n"); }, 20.0);
  EXPECT_THAT(e.message(), HasSubstr("budget of 500000 XML nodes"));
  // A property doubled 40 times: 2^41 bytes.
  std::string doubled = "<xacro:property name=\"p0\" value=\"ab\"/>\n";
  for (int i = 1; i <= 40; ++i)
    doubled += "<xacro:property name=\"p" + std::to_string(i) + "\" value=\"${p" +
               std::to_string(i - 1) + "}${p" + std::to_string(i - 1) + "}\"/>\n";
  e = quick_error([&] { expand_hostile(doubled + "<link name=\"${p40}\"/>\n"); });
  EXPECT_THAT(e.message(), HasSubstr("budget of 1048576 bytes per value"));
  EXPECT_THAT(quick_error([] { eval_limited("'ab'*10**9"); }).message(),
              HasSubstr("budget of 1048576 bytes per value"));
  EXPECT_THAT(quick_error([] { eval_limited("[0] * 10**9"); }).message(), HasSubstr("bytes per value"));
  EXPECT_THAT(quick_error([] { eval_limited("range(10**12)"); }).message(), HasSubstr("bytes per value"));
  // Found by fuzzing: a list of 20,075 items repeated 2,225 times (44 million values) — the
  // budget counts what the items hold, not only how many there are.
  EXPECT_THAT(quick_error([] { eval_limited("[445*5*[4015*5*[401]]-0]"); }).message(),
              HasSubstr("bytes per value"));
  EXPECT_THAT(quick_error([] { eval_limited("[['x' * 1000] * 1000] * 1000"); }).message(),
              HasSubstr("bytes per value"));
  // A megabyte joined with '' 3,000 times: each join a copy, so the work has a budget too.
  std::string joins = "'x' * 1048000";
  for (int i = 0; i < 3000; ++i) joins += " + ''";
  EXPECT_THAT(quick_error([&] { eval_limited(joins); }).message(),
              HasSubstr("MiB of values, beyond xacro's budget"));
  // An empty string or list repeated 10**18 times is empty at once (found by fuzzing).
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(eval_limited("len('' * 10**18) + len([] * 455387913403)"), "0");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  // Lists that functions build are weighed as well (also found by fuzzing).
  EXPECT_THAT(quick_error([] { eval_limited("range(216) * 2**22"); }).message(),
              HasSubstr("bytes per value"));
  EXPECT_THAT(quick_error([] { eval_limited("'a b'.split() * 10**9"); }).message(),
              HasSubstr("bytes per value"));
  // Values of a megabyte passed to a macro that doubles: each call stores one more.
  std::string passing =
      "<xacro:property name=\"big\" value=\"${'a' * 1000000}\"/>\n"
      "<xacro:macro name=\"m0\" params=\"s\"><link name=\"x\"/></xacro:macro>\n";
  for (int i = 1; i <= 12; ++i)
    passing += "<xacro:macro name=\"m" + std::to_string(i) + "\" params=\"s\"><xacro:m" +
               std::to_string(i - 1) + " s=\"${s}\"/><xacro:m" + std::to_string(i - 1) +
               " s=\"${s}\"/></xacro:macro>\n";
  e = quick_error([&] { expand_hostile(passing + "<xacro:m12 s=\"${big}\"/>\n"); }, 20.0);
  EXPECT_THAT(
      e.message(),
      HasSubstr("values stored in properties and parameters exceed xacro's budget of 256 MiB"));
  EXPECT_EQ(eval_limited("len('ab' * 1000)"), "2000");
}

TEST(XacroLimits, AnIncludeThatIsNotARegularFileIsRefused) {
  TempDir dir;
  const std::string fifo = (dir.path() / "pipe.xacro").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Error e = quick_error([&] { expand_hostile("<xacro:include filename=\"" + fifo + "\"/>\n"); });
  EXPECT_THAT(e.message(), HasSubstr("not a regular file (a FIFO)"));
  EXPECT_THAT(e.message(), HasSubstr("/tmp/hostile.urdf.xacro:3"));
  e = quick_error([&] { expand_hostile("<xacro:include filename=\"/dev/zero\"/>\n"); });
  EXPECT_THAT(e.message(), HasSubstr("not a regular file"));
  // A file beyond the size limit (sparse: no time spent writing it).
  const auto big = dir.write("big.xacro", "");
  std::filesystem::resize_file(big, (16u << 20) + 1);
  e = quick_error([&] { expand_hostile("<xacro:include filename=\"" + big.string() + "\"/>\n"); });
  EXPECT_THAT(e.message(), HasSubstr("larger than the limit of 16777216 bytes"));
  e = quick_error([&] { eval_limited("xacro.load_yaml('/dev/zero')"); });
  EXPECT_THAT(e.message(), HasSubstr("not a regular file"));
}

TEST(XacroLimits, MessagesQuoteOnlyAFewDozenCharactersOfTheInput) {
  const std::string long_name(10000, 'n');
  for (const std::string& body :
       {"<link name=\"${" + long_name + "}\"/>\n",
        "<link name=\"${1 + '" + long_name + "' - 1}\"/>\n", "<xacro:" + long_name + "/>\n",
        "<link name=\"$(arg " + long_name + ")\"/>\n", "<link name=\"${'" + long_name + "'\"/>\n",
        "<xacro:if value=\"" + long_name + "\"/>\n", "<link " + long_name + "=\"${undefined}\"/>\n",
        "<xacro:macro name=\"" + long_name +
            "\" params=\"\"><link name=\"${undefined}\"/></xacro:macro><xacro:" + long_name +
            "/>\n"}) {
    const Error e = quick_error([&] { expand_hostile(body); });
    EXPECT_LT(e.message().size(), 400u) << e.message().substr(0, 400);
    EXPECT_THAT(e.message(), HasSubstr("/tmp/hostile.urdf.xacro:3"));
  }
}

}  // namespace
}  // namespace kinetic
