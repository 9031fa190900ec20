#include "app/headless/job_json_fields.hpp"

#include "engine/core/types.hpp"

namespace kinetic::app::headless::job_json {

Pose parse_pose(const Fields& f) {
  const Vector3 xyz = f.has("xyz") ? vec3(f.numbers("xyz", 3, "xyz")) : Vector3::Zero();
  if (f.has("rpy") && f.has("quaternion"))
    throw JobError(f.path(), "give \"rpy\" or \"quaternion\", not both");
  Pose pose = Pose::Identity();
  pose.translation() = xyz;
  if (f.has("rpy")) {
    const Vector3 rpy = vec3(f.numbers("rpy", 3, "rpy (radians)"));
    pose.linear() = rotation_from_rpy(rpy.x(), rpy.y(), rpy.z());
  } else if (f.has("quaternion")) {
    const auto q = f.numbers("quaternion", 4, "quaternion [x, y, z, w]");
    const Quaternion quaternion(q[3], q[0], q[1], q[2]);
    if (quaternion.norm() < 1e-9)
      throw JobError(f.at("quaternion"), "a zero quaternion is not a rotation");
    pose.linear() = quaternion.normalized().toRotationMatrix();
  }
  return pose;
}

}  // namespace kinetic::app::headless::job_json
