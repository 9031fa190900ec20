// kinetic.toml's [ik] tolerances, time budget and iterations reach every IK call: the options
// built from a robot's configuration carry them, and defaults hold where the file is silent.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "engine/kinematics/ik_factory.hpp"
#include "engine/model/robot_loader.hpp"

namespace kinetic {
namespace {

std::string read_config_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

RobotModelPtr panda_with_ik_table(const std::string& ik_table) {
  const std::string dir = builtin_robot_directory() + "/panda";
  std::string toml = read_config_text(dir + "/kinetic.toml");
  const auto at = toml.find("[ik]\n");
  EXPECT_NE(at, std::string::npos);
  toml.insert(at + 5, ik_table);
  return load_robot_string(read_config_text(dir + "/robot.urdf"), "", toml, dir);
}

TEST(IkConfig, OptionsCarryTheConfiguredTolerancesBudgetAndIterations) {
  const RobotModelPtr model = panda_with_ik_table(
      "position_tolerance = 0.002\norientation_tolerance = 0.004\ntimeout_ms = 12\nmax_iterations "
      "= 33\n");
  const IkOptions options = ik_options_from_config(*model);
  EXPECT_EQ(options.position_tolerance, 0.002);
  EXPECT_EQ(options.orientation_tolerance, 0.004);
  EXPECT_EQ(options.timeout_ms, 12.0);
  EXPECT_EQ(options.max_iterations, 33);
}

TEST(IkConfig, DefaultsWhereTheFileIsSilent) {
  const IkOptions options = ik_options_from_config(*load_builtin_robot("ur5e"));
  const IkOptions defaults;
  EXPECT_EQ(options.position_tolerance, 1e-4);     // 0.1 mm
  EXPECT_EQ(options.orientation_tolerance, 1e-3);  // 1 mrad
  EXPECT_EQ(options.timeout_ms, defaults.timeout_ms);
  EXPECT_EQ(options.max_iterations, defaults.max_iterations);
}

}  // namespace
}  // namespace kinetic
