# Included from node/CMakeLists.txt: the daemon library and driftd.

# The dashboard page, built into driftd (node/http/dashboard_page.h).
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_CURRENT_SOURCE_DIR}/http/dashboard.html)
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/http/dashboard.html DRIFT_DASHBOARD_HTML)
configure_file(http/dashboard_page.cc.in ${CMAKE_CURRENT_BINARY_DIR}/http/dashboard_page.cc @ONLY)
add_library(drift_node
  daemon.cc
  daemon_params.cc
  daemon_dispatch.cc
  daemon_tasks.cc
  daemon_faults.cc
  daemon_service.cc
  balance/balancer_service.cc
  jobs/job_coordinator.cc
  jobs/job_coordinator_recovery.cc
  jobs/job_coordinator_losses.cc
  jobs/job_coordinator_takeover.cc
  jobs/job_coordinator_jobs.cc
  jobs/job_queue.cc
  recovery/recovery_agent.cc
  tasks/message_router.cc
  tasks/migration_service.cc
  owner/owner_service.cc
  owner/owner_socket.cc
  tasks/task_list_query.cc
  service/log.cc
  service/systemd_notify.cc
  machine/machine_stats.cc
  membership/membership_service.cc
  membership/heartbeat_beacon.cc
  net/peer_connection.cc
  net/peer_connection_tls.cc
  tasks/task_host.cc
  tasks/task_host_worker.cc
  workers/binary_service.cc
  net/transport.cc
  daemon_http.cc
  ${CMAKE_CURRENT_BINARY_DIR}/http/dashboard_page.cc
)
# TLS for every connection (node/net/tls_context.h), shared with driftctl.
add_library(drift_tls net/tls_context.cc net/tls_channel.cc)
target_include_directories(drift_tls PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(drift_tls PUBLIC drift_node_core drift_thirdparty OpenSSL::SSL OpenSSL::Crypto)
target_include_directories(drift_node PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(drift_node PUBLIC drift_node_core drift_migration drift_workers drift_tls drift_observe spdlog::spdlog)
# The HTTP endpoint (http.listen) with cpp-httplib (Debian's libcpp-httplib-dev), through
# pkg-config: its shared library was built with OpenSSL, zlib and Brotli support, and code that
# includes httplib.h must define the same (else its classes differ from the library's). Without
# it (e.g. a cross build, whose sysroot lacks it) driftd builds all the same and says at start
# that it has no HTTP endpoint.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND AND NOT CMAKE_CROSSCOMPILING)
  pkg_check_modules(HTTPLIB QUIET IMPORTED_TARGET GLOBAL cpp-httplib)
endif()
if(TARGET PkgConfig::HTTPLIB)
  target_sources(drift_node PRIVATE http/http_endpoint.cc)
  target_link_libraries(drift_node PRIVATE PkgConfig::HTTPLIB)
else()
  target_sources(drift_node PRIVATE http/http_endpoint_absent.cc)
  message(STATUS "cpp-httplib not found: driftd will have no HTTP endpoint (apt install libcpp-httplib-dev)")
endif()
# sd_notify for systemd's Type=notify (node/service/systemd_notify.h); without libsystemd the
# daemon builds all the same and never notifies.
# Not when cross-compiling: pkg-config would find the build machine's library, not the target's.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND AND NOT CMAKE_CROSSCOMPILING)
  pkg_check_modules(LIBSYSTEMD QUIET IMPORTED_TARGET libsystemd)
endif()
if(LIBSYSTEMD_FOUND)
  target_link_libraries(drift_node PRIVATE PkgConfig::LIBSYSTEMD)
  target_compile_definitions(drift_node PRIVATE DRIFT_HAVE_LIBSYSTEMD)
else()
  message(STATUS "libsystemd not found: driftd will not notify systemd (apt install libsystemd-dev)")
endif()

add_executable(driftd driftd_main.cc)
target_link_libraries(driftd PRIVATE drift_node)
