// Loads a URDF through the installed engine package and prints its degrees of freedom.
#include <cstdio>

#include "engine/core/version.hpp"
#include "engine/model/robot_loader.hpp"

int main() {
  const char* urdf = R"(<robot name="two_link">
    <link name="base"/><link name="upper"/><link name="lower"/>
    <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
      <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/></joint>
    <joint name="elbow" type="revolute"><parent link="upper"/><child link="lower"/>
      <origin xyz="0 0 0.5"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" velocity="1" effort="1"/></joint>
  </robot>)";
  const auto model = kinetic::load_robot_string(urdf);
  std::printf("kinetic %s: %s has %d DOF\n", kinetic::version(), model->name().c_str(),
              model->dof());
  return model->dof() == 2 ? 0 : 1;
}
