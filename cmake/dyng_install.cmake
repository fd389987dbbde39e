# Installs libdyng as a CMake package: find_package(dyng) then target_link_libraries(... dyng::dyng).
# Skipped inside a Python build, where only the extension module is installed.
if(DYNG_BUILD_PYTHON)
  return()
endif()

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS dyng EXPORT dyngTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/dyng DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp"
  PATTERN "detail" EXCLUDE)
install(EXPORT dyngTargets NAMESPACE dyng:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dyng)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dyngConfig.cmake.in
  ${PROJECT_BINARY_DIR}/dyngConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dyng)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dyngConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dyngConfig.cmake ${PROJECT_BINARY_DIR}/dyngConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dyng)
