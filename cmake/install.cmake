# What `cmake --install build --prefix P` puts where (FHS; DESTDIR works): driftctl in P/bin,
# driftd in P/sbin, the applications in P/lib/drift/apps (where both look for them by default),
# the service — /etc/drift/driftd.conf, the systemd unit, /etc/logrotate.d/drift (P/etc/... and
# P/lib/systemd/system for a prefix other than /usr), man pages driftd(8) and driftctl(1) — and the SDK: headers in
# P/include/drift, libdrift_app.a in P/lib, the CMake package in P/lib/cmake/drift
# (find_package(drift 0.x CONFIG), target drift::app) and P/lib/pkgconfig/drift.pc.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

install(TARGETS driftctl RUNTIME DESTINATION bin COMPONENT runtime)
install(TARGETS driftd RUNTIME DESTINATION sbin COMPONENT runtime)
# A system install (configured with prefix /usr, as scripts/package.sh does) puts the service's
# files in /etc and /lib/systemd/system; any other prefix keeps them under it, relative, so that
# `cmake --install build --prefix P` writes nothing outside P whatever prefix was configured.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(drift_etc_dir /etc)
  set(drift_unit_default /lib/systemd/system)  # Debian 12's place for packaged units
else()
  set(drift_etc_dir etc)
  set(drift_unit_default lib/systemd/system)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/packaging/driftd.conf
        DESTINATION ${drift_etc_dir}/drift COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/logrotate.drift RENAME drift
        DESTINATION ${drift_etc_dir}/logrotate.d COMPONENT runtime)
set(DRIFT_SYSTEMD_UNIT_DIR "" CACHE PATH "where driftd.service is installed (empty: as above)")
set(drift_unit_dir "${DRIFT_SYSTEMD_UNIT_DIR}")
if(drift_unit_dir STREQUAL "")
  set(drift_unit_dir ${drift_unit_default})
endif()
install(FILES ${PROJECT_SOURCE_DIR}/packaging/driftd.service
        DESTINATION ${drift_unit_dir} COMPONENT runtime)
# Member certificates for cluster.tls_* (README, "Member certificates").
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/make-cluster-certs.sh
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/drift COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/conf/driftd.conf ${PROJECT_SOURCE_DIR}/conf/local.conf
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/drift/examples COMPONENT runtime)
# Each package's copyright and changelog (Debian's rules: /usr/share/doc/PACKAGE, gzip -9n).
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/changelog.gz
  COMMAND gzip -9n -c ${PROJECT_SOURCE_DIR}/packaging/changelog > ${PROJECT_BINARY_DIR}/changelog.gz
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/changelog VERBATIM)
add_custom_target(drift_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/changelog.gz)
foreach(component_package runtime:drift dev:drift-dev)
  string(REPLACE ":" ";" parts ${component_package})
  list(GET parts 0 component)
  list(GET parts 1 package)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
  # Built by the drift_changelog target (scripts/package.sh builds it; a plain install may not).
  install(FILES ${PROJECT_BINARY_DIR}/changelog.gz OPTIONAL
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
endforeach()

# Man pages from the programs' own --help (help2man), compressed as Debian wants them.
find_program(HELP2MAN help2man)
find_program(GZIP gzip)
# Not when cross-compiling: help2man runs the programs.
if(HELP2MAN AND GZIP AND NOT CMAKE_CROSSCOMPILING)
  foreach(page driftd:8:the_drift_daemon driftctl:1:control_a_drift_cluster)
    string(REPLACE ":" ";" parts ${page})
    list(GET parts 0 prog)
    list(GET parts 1 section)
    list(GET parts 2 title)
    string(REPLACE "_" " " title ${title})
    set(out ${PROJECT_BINARY_DIR}/man/${prog}.${section})
    add_custom_command(OUTPUT ${out}.gz
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
      COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section ${section} --name "${title}"
              --output ${out} $<TARGET_FILE:${prog}>
      COMMAND ${GZIP} -9nf ${out}
      DEPENDS ${prog} VERBATIM)
    list(APPEND drift_man_pages ${out}.gz)
    install(FILES ${out}.gz OPTIONAL DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section}
            COMPONENT runtime)
  endforeach()
  add_custom_target(drift_man_pages ALL DEPENDS ${drift_man_pages})
else()
  message(STATUS "help2man or gzip not found: no man pages (apt install help2man)")
endif()
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
# A sanitizer build's SDK is instrumented: what links it must link the sanitizer's runtime too
# (drift::app carries the option, sdk/CMakeLists.txt).
set(DRIFT_PC_SANITIZE "")
if(DRIFT_SANITIZE)
  set(DRIFT_PC_SANITIZE " -fsanitize=${DRIFT_SANITIZE}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/drift.pc.in ${PROJECT_BINARY_DIR}/drift.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/drift.pc DESTINATION lib/pkgconfig COMPONENT dev)
