# Included from node/CMakeLists.txt: the daemon library and driftd.
add_library(drift_node
  daemon.cc
  daemon_dispatch.cc
  daemon_faults.cc
  balancer_service.cc
  job_coordinator.cc
  job_coordinator_recovery.cc
  job_coordinator_takeover.cc
  recovery_agent.cc
  message_router.cc
  migration_service.cc
  owner_service.cc
  task_list_query.cc
  log.cc
  machine_stats.cc
  membership_service.cc
  peer_connection.cc
  task_context.cc
  task_host.cc
  transport.cc
)
target_include_directories(drift_node PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(drift_node PUBLIC drift_node_core drift_task drift_migration spdlog::spdlog)

add_executable(driftd driftd_main.cc)
target_link_libraries(driftd PRIVATE drift_node drift_apps)
