#include "tests/protocol/sample_messages.h"

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "protocol/frame.h"

namespace drift::test {
namespace {

Nonce counting_bytes(std::uint8_t start) {
  Nonce n{};
  for (std::size_t i = 0; i < n.size(); ++i) n[i] = static_cast<std::uint8_t>(start + 7 * i);
  return n;
}

JobSpec heat_spec() {
  return JobSpec{"heat2d",
                 16,
                 1000,
                 {{"nx", "4096"}, {"ny", "2048"}, {"alpha", "0.25"}},
                 {{"chaos_migrations", "1"}}};
}

LoadIndex load(OwnerState owner, double task_load) {
  return LoadIndex{task_load, 0.125, 1.5e6, 0.75, 8589934592ULL, owner, 12, 0.029, false};
}

MemberInfo member(std::uint32_t id, MemberState state) {
  return MemberInfo{id, 0x0123456789abcdefULL + id, "pc-" + std::to_string(id) + "-zürich",
                    "10.0.0." + std::to_string(id) + ":7400", state, id % 2 ? "x86_64" : "s390x"};
}

Hello hello_node() {
  return Hello{"physics-lab",    kProtocolVersion, PeerRole::kNode,    7,
               1700000000123ULL, "pc-07",          "192.168.1.7:7400", counting_bytes(0xa0)};
}

Hello hello_client() {
  return Hello{"", kProtocolVersion, PeerRole::kClient, 0, 0, "driftctl", "", counting_bytes(3)};
}

Heartbeat heartbeat() {
  return Heartbeat{7,
                   42,
                   123456789,
                   load(OwnerState::kDraining, 3.25),
                   true,
                   NodeCounters{1, 2, 3ULL << 33, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17},
                   {member(1, MemberState::kAlive), member(2, MemberState::kSuspect),
                    member(3, MemberState::kDead)},
                   3,
                   {2, 0x80000001u}};
}

TaskMessage task_message() {
  return TaskMessage{{9, 3}, {9, 4}, 17, 0xdeadbeef, 3, {0x00, 0xff, 0x80, 0x7f, 0xc3, 0xa9, 0x01}};
}

StatusReply status_reply() {
  return StatusReply{7,
                     {{member(7, MemberState::kAlive), load(OwnerState::kAvailable, -0.0), NodeCounters{}},
                      {member(8, MemberState::kSuspect), load(OwnerState::kSuspended, 1e-300),
                       NodeCounters{9, 8, 7, 6, 5, 4096, 512, 3, 11}},
                      {member(9, MemberState::kDead), load(OwnerState::kReclaimed, 1e300),
                       NodeCounters{0, 0, ~0ULL, 1, 0}}}};
}

std::vector<SampleMessage> build() {
  constexpr double kMin = std::numeric_limits<double>::denorm_min();
  return {
      {"hello_node", hello_node()},
      {"hello_client", hello_client()},
      {"hello_auth", HelloAuth{counting_bytes(0xf0)}},
      {"heartbeat", heartbeat()},
      {"probe_request", ProbeRequest{0x0102030405060708ULL, 7, 9, 1700000000123456ULL}},
      {"probe_ack_answered",
       ProbeAck{0x0102030405060708ULL, 7, 9, 1700000000123456ULL, 9, ProbeEvidence::kAnswered}},
      {"probe_ack_heartbeat",
       ProbeAck{12, 7, 9, 1700000000123457ULL, 8, ProbeEvidence::kHeartbeat}},
      {"task_message", task_message()},
      {"create_tasks", CreateTasks{9, 7, heat_spec(), {7, 7, 8, 9}, {0, 1}}},
      {"tasks_created_ok", TasksCreated{9, 8, true, ""}},
      {"tasks_created_failed", TasksCreated{9, 8, false, "unknown app 'héat3d'"}},
      {"start_job", StartJob{0xfedcba9876543210ULL}},
      {"reduction_contribution", ReductionContribution{9, 3, 250, {-2.5, 0.1, kMin, -1e-7}, 2}},
      {"reduction_result",
       ReductionResult{9, 250, {3.141592653589793, -0.0, -1.7976931348623157e308}, {0, 5, 9}}},
      {"reduction_result_checkpoint", ReductionResult{9, 250, {0.5}, {3}, 4, true}},
      {"reduction_result_regrain",
       ReductionResult{9, 250, {0.5}, {3}, 4, false,
                       {{GrainKind::kSplit, 3, 15}, {GrainKind::kMerge, 0, 1}}}},
      {"migration_offer", MigrationOffer{{9, 3}, 2, 7, heat_spec(), 67108864, 64, {}}},
      {"migration_offer_balance",
       MigrationOffer{{9, 3}, 2, 7, heat_spec(), 4096, 1, BalanceBasis{true, 250.5, 1e4, 3.25, 0.03125}, 5}},
      {"migration_answer_yes", MigrationAnswer{{9, 3}, 2, true, ""}},
      {"migration_answer_no", MigrationAnswer{{9, 3}, 2, false, "only 12 MiB free, 64 MiB asked"}},
      {"migration_chunk", MigrationChunk{{9, 3}, 2, 63, {0x01, 0x00, 0xfe, 0x80}}},
      {"migration_done", MigrationDone{{9, 3}, 2, true, ""}},
      {"location_update", LocationUpdate{{9, 3}, 8, 2}},
      {"location_query", LocationQuery{{9, 0xffffffffu}}},
      {"migrate_command", MigrateCommand{77, 1, {9, 3}, 8}},
      {"migration_report", MigrationReport{77, {9, 3}, false, "node 8 refused", 7, 8, 1024, 0.25}},
      {"task_list_request", TaskListRequest{78}},
      {"task_list_reply", TaskListReply{78, 8, {TaskInfo{{9, 3}, 8, 2, 1.5, 0},
                                               TaskInfo{{9, 4}, 0, 0, 0, 12}}}},
      {"migrate_request", MigrateRequest{{9, 3}, 8}},
      {"tasks_request", TasksRequest{0}},
      {"tasks_reply", TasksReply{{TaskInfo{{9, 3}, 8, 2, 1.5, 3}}}},
      {"task_finished", TaskFinished{9, 3, {0xef, 0xbb, 0xbf, 0x00, 0x10}, 1}},
      {"job_end", JobEnd{9, true, "node 8 died twice"}},
      {"status_request", StatusRequest{0}},
      {"status_reply", status_reply()},
      {"run_request", RunRequest{heat_spec()}},
      {"job_progress", JobProgress{9, 250, 1000, {0.5, -12.75}}},
      {"job_result", JobResult{9,
                               "heat2d",
                               "sha256:9f86d081",
                               1000,
                               16,
                               12.345,
                               {{"efficiency", "0.93"}, {"migrations", "4"}, {"\xce\xb1", "β"}},
                               {0.5, 2.25, -0.0},
                               4,
                               2,
                               17}},
      {"balance_request", BalanceRequest{4, 120.5, 80, 6.8, 0.0625}},
      {"balance_reservation", BalanceReservation{{9, 3}, 2, 12.5}},
      {"grain_request", GrainRequest{9, {GrainKind::kMerge, 3, 11}, 4}},
      {"job_notice", JobNotice{9, JobNoticeKind::kRecovered, 8, 240, 10, 0.375,
                               "node 8 (pc-8) died; rolled back to step 240"}},
      {"checkpoint_copy", CheckpointCopy{{9, 3}, 2, 240, 7, 4, 8, {0x00, 0x01, 0xfe, 0xff}}},
      {"checkpoint_ack", CheckpointAck{{9, 3}, 2, 240, 7, 8}},
      {"checkpoint_commit", CheckpointCommit{9, 240}},
      {"job_rollback", JobRollback{9, 3, 7, false, 240, heat_spec(), {7, 8, 7, 9}, {0, 2}}},
      {"job_rollback_from_start", JobRollback{9, 1, 7, true, 0, heat_spec(), {7, 7}, {}}},
      {"rollback_ready", RollbackReady{9, 3, 8, false, "no copy of task 9:2 at step 240"}},
      {"job_resume", JobResume{9, 3}},
      {"job_record", JobRecord{9, 7, heat_spec(), 2, true, 240, {0.5, -1.0}, {7, 8}, {8, 9}, 251, 1,
                               10, 6, 12.5, {0.25, 0.125},
                               {{200, {GrainKind::kSplit, 2, 11}}, {240, {GrainKind::kMerge, 2, 11}}},
                               {0, 1, 2},
                               3}},
      {"job_record_no_checkpoint",
       JobRecord{9, 7, heat_spec(), 0, false, 0, {}, {}, {}, 3, 0, 0, 0, 0.5, {}}},
      {"job_attach", JobAttach{0x700000001ULL, 42}},
      {"node_leaving", NodeLeaving{9, 8, "the owner's evacuation deadline passed"}},
      {"node_left", NodeLeft{9, 8}},
      {"node_left_ack", NodeLeftAck{9}},
      {"deputy_order", DeputyOrder{9, true, true}},
      {"checkpoint_offer", CheckpointOffer{0x500000003ULL, 40, 2, {0, 5, 7}}},
      {"job_notice_not_here", JobNotice{9, JobNoticeKind::kNotHere, 8, 0, 0, 0, "ask node 8"}},
      {"frame_faults_request", FrameFaultsRequest{0.01, 0.25, 5.5}},
      {"frame_faults_reply", FrameFaultsReply{false, "refused: test.hooks is off"}},
      {"job_failed", JobFailed{9, "task 3 threw: std::bad_alloc"}},
      {"owner_request", OwnerRequest{OwnerAction::kRelease}},
      {"owner_reply", OwnerReply{3, "ws-12", OwnerState::kDraining, 4, "draining 4 tasks"}},
      {"refused", Refused{"MigrateRequest", 1, "migrate needs the admin role; token 'alice' is a user"}},
      {"worker_lost", WorkerLost{9, 8, 2, {3, 4},
                                 "its worker (pid 4242) killed by signal 9 (Killed)"}},
      {"job_notice_sat_out",
       JobNotice{9, JobNoticeKind::kSatOut, 0, 0, 0, 0,
                 "node 3 (pc-3, i386) take no task of the job"}},
      {"app_offer", AppOffer{std::string(64, 'a'), "s390x", 5242880}},
      {"app_offer_reply", AppOfferReply{std::string(64, 'a'), false, ""}},
      {"app_piece", AppPiece{std::string(64, 'a'), 5242880, 1048576, {0x7f, 0x45, 0x4c, 0x46}}},
      {"app_stored", AppStored{std::string(64, 'a'), false, "not here"}},
      {"app_fetch", AppFetch{std::string(64, 'b')}},
      {"submit_request", SubmitRequest{JobSpec{"heat2d", 8, 200, {{"size", "64x64"}}, {{"name", "night"}}}}},
      {"job_accepted", JobAccepted{0x100020003ULL, 1}},
      {"job_cancel", JobCancel{0x100020003ULL}},
      {"job_forget", JobForget{0x100020003ULL}},
      {"queued_job_record",
       QueuedJobRecord{0x100020003ULL, 1, JobSpec{"heat2d", 8, 200, {{"size", "64x64"}}, {{"owner", "alice"}}},
                       {0, 2}, 1, 33554432, "no live, available node", 12.5}},
      {"job_activity", JobActivity{0x100020003ULL, 2}},
      {"job_list_request", JobListRequest{true}},
      {"job_list_reply",
       JobListReply{2, {JobEntry{0x200010001ULL, "night", "alice", "heat2d", JobState::kCancelled,
                                 120, 200, 8, 31.5, {1, 2, 3}, 2, "cancelled by alice", 4.25},
                        JobEntry{0x200010002ULL, "particles", "bob", "particles",
                                 JobState::kRunning, 7, 100, 4, 2.0, {2}, 2, "", 0}}}},
      {"job_ended",
       JobEnded{JobEntry{0x200010003ULL, "night", "alice", "heat2d", JobState::kFailed, 12, 200,
                           8, 3.5, {1, 2}, 2, "node 3 could not create its tasks", 0},
                  false, JobResult{}, JobFailed{0x200010003ULL, "node 3 could not create its tasks"}}},
  };
}

}  // namespace

const std::vector<SampleMessage>& sample_messages() {
  static const std::vector<SampleMessage> samples = build();
  return samples;
}

const WireMessage& sample_message(std::string_view name) {
  for (const SampleMessage& s : sample_messages()) {
    if (s.name == name) return s.message;
  }
  throw std::out_of_range("no sample message named " + std::string(name));
}

}  // namespace drift::test
