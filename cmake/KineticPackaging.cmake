# The studio as a Debian package: `make deb` (or cpack -G DEB in a build tree) writes
# kinetic-studio_<version>_<arch>.deb with what `make install` puts in place for the studio —
# binary, robot library, menu entry, MIME type, icons, AppStream metadata — but not the engine's
# headers and CMake package (component Unspecified), which are for building against the engine.
if(KINETIC_ENGINE_ONLY)
  return()
endif()

set(KINETIC_PACKAGE_MAINTAINER "Kinetic Studio maintainers <maintainers@kinetic-studio.invalid>"
  CACHE STRING "Maintainer field of the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kinetic-studio)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Kinetic Studio")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "robot arm motion planning studio")
# (Set here, or CPack describes the package with its own template text.)
set(CPACK_PACKAGE_DESCRIPTION "Load a robot arm from its URDF or from the built-in library, pose it with
joint sliders or a goal gizmo with live inverse kinematics, plan collision-free
motions around the obstacles of a scene, time them within the arm's limits,
play them back and export them for a controller (JSON, CSV, ROS
JointTrajectory YAML, URScript). Includes pick-and-place tasks, keyboard and
3D-mouse teleoperation, and a headless mode that plans, exports and renders
images without a display.")
# One package of these two components (without component installation CPack takes every component).
set(CPACK_COMPONENTS_ALL studio robot_library)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
# Where the binary looks for its robot library (KINETIC_INSTALL_ROBOT_CONFIGS is built from
# CMAKE_INSTALL_PREFIX), so the package must install there: make deb configures -DCMAKE_INSTALL_PREFIX=/usr.
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${KINETIC_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Depends from the libraries the binary links (dpkg-shlibdeps, part of build-essential's dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# A Vulkan driver (lavapipe, or the GPU's): without one the studio runs without its 3D view.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "mesa-vulkan-drivers")

include(CPack)
