// Every top-level xacro in ../shared/robots expanded by the engine's xacro, compared structurally
// with what ROS 2's own xacro made of it (../shared/robots/expected, listed in index.tsv): the
// robot's name, its links (visual and collision geometry with mesh files resolved, origins,
// materials, inertia), its joints (type, parent, child, origin, axis, limits, mimic, ...) and its
// materials; an SRDF as a whole. Numbers are compared as numbers (1e-9), not as text. The runs
// ROS's xacro rejects must give a clear error naming the file, not a crash.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/core/error.hpp"
#include "engine/model/package_resolver.hpp"
#include "engine/model/xacro/xacro_processor.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;
using tinyxml2::XMLElement;

struct XacroRun {
  std::string source, arguments, output, status;
};

std::vector<XacroRun> runs() {
  std::vector<XacroRun> out;
  const std::string root = test::shared_robots_dir();
  if (root.empty()) return out;
  std::ifstream index(root + "/expected/index.tsv");
  std::string line;
  std::getline(index, line);  // header
  while (std::getline(index, line)) {
    std::vector<std::string> fields;
    std::stringstream row(line);
    for (std::string field; std::getline(row, field, '\t');) fields.push_back(field);
    if (fields.size() >= 4)
      out.push_back({fields[0], fields[1] == "-" ? "" : fields[1], fields[2], fields[3]});
  }
  return out;
}

std::string read_reference_text(const fs::path& path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// The numbers of an attribute ("0 0 1.5707963267948966"), or nothing when it is not all numbers.
std::optional<std::vector<double>> numbers(const std::string& text) {
  std::vector<double> out;
  std::stringstream words(text);
  for (std::string word; words >> word;) {
    double d = 0.0;
    const auto r = std::from_chars(word.data(), word.data() + word.size(), d);
    if (r.ec != std::errc() || r.ptr != word.data() + word.size()) return std::nullopt;
    out.push_back(d);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

class Comparison {
 public:
  Comparison(std::string shared, const PackageResolver& resolver)
      : shared_(std::move(shared)), resolver_(resolver) {}

  // Differences between two subtrees: element names, attributes (numbers within 1e-9), texts,
  // child elements in order. Comments and whitespace do not count.
  void subtree(const XMLElement* want, const XMLElement* got, const std::string& path) {
    if (std::string(want->Name()) != got->Name())
      return differ(path, "element <" + std::string(want->Name()) + "> vs <" + got->Name() + ">");
    std::map<std::string, std::string> a, b;
    for (auto* x = want->FirstAttribute(); x; x = x->Next()) a[x->Name()] = x->Value();
    for (auto* x = got->FirstAttribute(); x; x = x->Next()) b[x->Name()] = x->Value();
    for (const auto& [name, value] : a) {
      if (!b.count(name))
        differ(path + "@" + name, "missing (expected '" + value + "')");
      else
        value_of(path + "@" + name, value, b[name]);
    }
    for (const auto& [name, value] : b)
      if (!a.count(name)) differ(path + "@" + name, "unexpected '" + value + "'");
    value_of(path + "/text()", trimmed(want->GetText()), trimmed(got->GetText()));
    const XMLElement* x = want->FirstChildElement();
    const XMLElement* y = got->FirstChildElement();
    for (int i = 0; x || y; ++i, x = x ? x->NextSiblingElement() : nullptr,
             y = y ? y->NextSiblingElement() : nullptr) {
      const std::string child =
          path + "/" + (x ? x->Name() : y->Name()) + "[" + std::to_string(i) + "]";
      if (!x)
        differ(child, "unexpected element");
      else if (!y)
        differ(child, "missing element");
      else
        subtree(x, y, child);
    }
  }

  // A URDF: name, links, joints and materials of the robot (by name, in any order).
  void urdf(const XMLElement* want, const XMLElement* got) {
    value_of("robot@name", want->Attribute("name") ? want->Attribute("name") : "",
             got->Attribute("name") ? got->Attribute("name") : "");
    for (const char* kind : {"link", "joint", "material"}) {
      std::map<std::string, const XMLElement*> a, b;
      for (auto* e = want->FirstChildElement(kind); e; e = e->NextSiblingElement(kind))
        a[e->Attribute("name") ? e->Attribute("name") : ""] = e;
      for (auto* e = got->FirstChildElement(kind); e; e = e->NextSiblingElement(kind))
        b[e->Attribute("name") ? e->Attribute("name") : ""] = e;
      for (const auto& [name, e] : a) {
        const std::string path = std::string(kind) + "[" + name + "]";
        if (!b.count(name))
          differ(path, "missing");
        else
          subtree(e, b[name], path);
      }
      for (const auto& [name, e] : b)
        if (!a.count(name)) differ(std::string(kind) + "[" + name + "]", "unexpected");
    }
  }

  std::vector<std::string> differences;

 private:
  static std::string trimmed(const char* text) {
    std::string s = text ? text : "";
    const auto first = s.find_first_not_of(" \t\r\n"), last = s.find_last_not_of(" \t\r\n");
    return first == std::string::npos ? std::string{} : s.substr(first, last - first + 1);
  }
  void differ(const std::string& path, const std::string& what) {
    if (differences.size() < 20) differences.push_back(path + ": " + what);
  }
  void value_of(const std::string& path, std::string want, const std::string& got) {
    for (std::size_t at = want.find("$(SHARED_ROBOTS)"); at != std::string::npos;
         at = want.find("$(SHARED_ROBOTS)"))
      want.replace(at, 16, shared_);
    if (want == got) return;
    const auto x = numbers(want), y = numbers(got);
    if (x && y && x->size() == y->size()) {
      for (std::size_t i = 0; i < x->size(); ++i)
        if (!(std::fabs((*x)[i] - (*y)[i]) <= 1e-9 * std::max(1.0, std::fabs((*x)[i]))) &&
            !(std::isnan((*x)[i]) && std::isnan((*y)[i])))
          return differ(path, "expected '" + want + "', got '" + got + "'");
      return;
    }
    // Mesh files: the same file, however written (package:// or file://).
    const auto a = resolver_.resolve(want), b = resolver_.resolve(got);
    if (!a.path.empty() && a.path == b.path) return;
    differ(path, "expected '" + want + "', got '" + got + "'");
  }

  std::string shared_;
  const PackageResolver& resolver_;
};

class XacroReference : public ::testing::TestWithParam<XacroRun> {};

TEST_P(XacroReference, ExpandsAsRosXacroDoes) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const XacroRun& run = GetParam();
  const std::string shared = test::shared_robots_dir();
  const fs::path source = fs::path(shared) / run.source;
  xacro::ExpandOptions options;
  std::stringstream words(run.arguments);
  for (std::string word; words >> word;) {
    const auto assign = word.find(":=");
    ASSERT_NE(assign, std::string::npos) << word;
    options.args[word.substr(0, assign)] = word.substr(assign + 2);
  }
  const PackageResolver resolver(source.parent_path().string(), {shared});
  options.find_package = [&](const std::string& name) { return resolver.find_package(name); };

  if (run.status != "ok") {
    try {
      xacro::expand(read_reference_text(source), source.string(), options);
      ADD_FAILURE() << run.source << " " << run.arguments
                    << ": ROS's xacro rejects this run; the engine expanded it";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::ParseError);
      EXPECT_NE(e.message().find(".xacro"), std::string::npos)
          << "the message names no file: " << e.message();
      std::cout << "[ rejected ] " << run.source << ": " << e.message() << "\n";
    }
    return;
  }
  std::string expanded;
  try {
    expanded = xacro::expand(read_reference_text(source), source.string(), options);
  } catch (const Error& e) {
    FAIL() << run.source << " " << run.arguments << ": " << e.message();
  }
  tinyxml2::XMLDocument want, got;
  ASSERT_EQ(want.LoadFile((fs::path(shared) / "expected" / run.output).c_str()),
            tinyxml2::XML_SUCCESS)
      << run.output;
  ASSERT_EQ(got.Parse(expanded.c_str(), expanded.size()), tinyxml2::XML_SUCCESS)
      << expanded.substr(0, 2000);
  Comparison compare(shared, resolver);
  const bool srdf = run.output.size() > 5 && run.output.substr(run.output.size() - 5) == ".srdf";
  if (srdf)
    compare.subtree(want.RootElement(), got.RootElement(), "robot");
  else
    compare.urdf(want.RootElement(), got.RootElement());
  std::string report;
  for (const std::string& d : compare.differences) report += "\n  " + d;
  EXPECT_TRUE(compare.differences.empty()) << run.output << " differs from ROS's xacro:" << report;
  // The whole document as well (ros2_control, gazebo, ...): reported, for the table.
  Comparison whole(shared, resolver);
  whole.subtree(want.RootElement(), got.RootElement(), "robot");
  std::cout << "[ " << (compare.differences.empty() ? "same     " : "DIFFERENT") << " ] "
            << run.output
            << (whole.differences.empty() ? " (whole document identical)"
                                          : " (elsewhere: " + whole.differences.front() + ")")
            << "\n";
}

std::string name_of(const ::testing::TestParamInfo<XacroRun>& info) {
  std::string name = std::to_string(info.index) + "_" +
                     (info.param.output.empty() || info.param.output == "-"
                          ? fs::path(info.param.source).filename().string() + "_rejected"
                          : info.param.output);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(SharedRobots, XacroReference, ::testing::ValuesIn(runs()), name_of);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(XacroReference);

}  // namespace
}  // namespace kinetic
