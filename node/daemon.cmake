# Included from node/CMakeLists.txt: the daemon library and driftd.
add_library(drift_node
  daemon.cc
  daemon_params.cc
  daemon_dispatch.cc
  daemon_faults.cc
  balance/balancer_service.cc
  jobs/job_coordinator.cc
  jobs/job_coordinator_recovery.cc
  jobs/job_coordinator_takeover.cc
  recovery/recovery_agent.cc
  tasks/message_router.cc
  tasks/migration_service.cc
  owner/owner_service.cc
  tasks/task_list_query.cc
  log.cc
  machine/machine_stats.cc
  membership/membership_service.cc
  membership/heartbeat_beacon.cc
  net/peer_connection.cc
  tasks/task_host.cc
  tasks/task_host_worker.cc
  workers/binary_service.cc
  net/transport.cc
)
target_include_directories(drift_node PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(drift_node PUBLIC drift_node_core drift_migration drift_workers spdlog::spdlog)

add_executable(driftd driftd_main.cc)
target_link_libraries(driftd PRIVATE drift_node)
