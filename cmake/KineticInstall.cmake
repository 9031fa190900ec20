# Installs the engine as a CMake package (find_package(kinetic) gives kinetic::engine), and the
# studio with its robot library and desktop integration.
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
# Components: the studio's files (studio) and the robot library (robot_library) make the Debian
# package (cmake/KineticPackaging.cmake); the engine's files above are Unspecified.
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/robot_configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kinetic/robot_configs
  COMPONENT robot_library)
if(NOT KINETIC_ENGINE_ONLY)
  install(TARGETS kinetic-studio RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT studio)
  # Desktop menu entry, and .kinetic-session files opening in the studio from a file manager.
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/app/desktop/kinetic-studio.desktop
    DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT studio)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/app/desktop/kinetic-session.xml
    DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages COMPONENT studio)
  # The icon the menu entry names (Icon=kinetic-studio): the PNG sizes in the hicolor theme, and the SVG.
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/resources/icons/hicolor DESTINATION ${CMAKE_INSTALL_DATADIR}/icons
    COMPONENT studio FILES_MATCHING PATTERN "*.png")
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/resources/icons/kinetic-studio.svg
    DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT studio)
  # What software centres show (AppStream).
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/installer/io.github.kinetic_studio.KineticStudio.metainfo.xml
    DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT studio)
endif()
