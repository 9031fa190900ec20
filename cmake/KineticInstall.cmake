# Installs the engine as a CMake package: find_package(kinetic) gives kinetic::engine.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS kinetic_engine EXPORT kineticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kinetic)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/engine/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kinetic/engine
  FILES_MATCHING PATTERN "*.hpp")
install(EXPORT kineticTargets NAMESPACE kinetic:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kinetic)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/kineticConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/kineticConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kinetic)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/kineticConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/kineticConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/kineticConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kinetic)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/robot_configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kinetic/robot_configs)
if(NOT KINETIC_ENGINE_ONLY)
  install(TARGETS kinetic-studio RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # Desktop menu entry, and .kinetic-session files opening in the studio from a file manager.
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/app/desktop/kinetic-studio.desktop
    DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/app/desktop/kinetic-session.xml
    DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages)
endif()
