# What `cmake --install build --prefix P` puts where: driftd and driftctl in P/bin, the
# applications in P/lib/drift/apps (where both look for them by default), and the SDK — headers
# in P/include/drift, libdrift_app.a in P/lib, the CMake package in P/lib/cmake/drift
# (find_package(drift 0.x CONFIG), target drift::app) and P/lib/pkgconfig/drift.pc.
include(CMakePackageConfigHelpers)

install(TARGETS driftd driftctl RUNTIME DESTINATION bin COMPONENT runtime)
get_property(drift_installed_apps GLOBAL PROPERTY DRIFT_APPS)
install(TARGETS ${drift_installed_apps} RUNTIME DESTINATION lib/drift/apps COMPONENT runtime)

install(TARGETS drift_app EXPORT driftTargets ARCHIVE DESTINATION lib COMPONENT dev)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/drift DESTINATION include COMPONENT dev
        FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/drift/version.h DESTINATION include/drift
        COMPONENT dev)
install(EXPORT driftTargets NAMESPACE drift:: DESTINATION lib/cmake/drift COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/driftConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/driftConfig.cmake
                              INSTALL_DESTINATION lib/cmake/drift)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/driftConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/driftConfig.cmake ${PROJECT_BINARY_DIR}/driftConfigVersion.cmake
        DESTINATION lib/cmake/drift COMPONENT dev)
configure_file(${PROJECT_SOURCE_DIR}/cmake/drift.pc.in ${PROJECT_BINARY_DIR}/drift.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/drift.pc DESTINATION lib/pkgconfig COMPONENT dev)
