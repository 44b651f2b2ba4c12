# Debian packages with CPack (bash scripts/package.sh): `drift` — driftd, driftctl, the
# applications, the systemd unit, /etc/drift/driftd.conf (a conffile), logrotate, man pages, and
# maintainer scripts that create the drift user and its directories — and `drift-dev`, the SDK.
# Dependencies come from the shared libraries the binaries link (dpkg-shlibdeps).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME drift)
set(CPACK_PACKAGE_VENDOR "the drift authors")
# Your site's contact goes in the packages: -DDRIFT_PACKAGE_CONTACT="Name <address>".
set(DRIFT_PACKAGE_CONTACT "drift maintainers <drift-maintainers@drift.example.com>" CACHE STRING
    "Maintainer of the Debian packages")
set(CPACK_PACKAGE_CONTACT "${DRIFT_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
if(DEFINED DRIFT_PACKAGE_VERSION)  # scripts/package.sh --version (upgrade tests)
  set(CPACK_PACKAGE_VERSION ${DRIFT_PACKAGE_VERSION})
endif()
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_OUTPUT_FILE_PREFIX ${PROJECT_SOURCE_DIR}/dist)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME drift)
# adduser: the postinst makes the drift user; procps: the unit's ExecReload is /bin/kill (a
# minimal Debian has no procps: found by tests/package/systemd_test.sh).
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "adduser, procps")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "openssl")  # make-cluster-certs.sh
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "logrotate")
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "turns the idle PCs of an office into one parallel machine
A daemon on every workstation (driftd, a systemd service) runs SPMD
applications whose tasks move between the PCs so each is busy in proportion
to its capacity, and steps aside when the PC's owner comes back; driftctl
submits and watches jobs.")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/packaging/postinst ${PROJECT_SOURCE_DIR}/packaging/prerm
    ${PROJECT_SOURCE_DIR}/packaging/postrm ${PROJECT_SOURCE_DIR}/packaging/conffiles)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME drift-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libcereal-dev, g++ | c++-compiler")
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "SDK to build applications for drift
Headers (<drift/app.h> ...), the static runtime library and the CMake package
(find_package(drift CONFIG), target drift::app) an application links to run
as a drift job on the PCs of an office.")

include(CPack)
