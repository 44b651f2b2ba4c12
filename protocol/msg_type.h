// The wire type number of every message drift sends (messages.h and recovery_messages.h hold the
// bodies). Numbers are grouped by purpose and never reused.
#pragma once

#include <cstdint>

namespace drift {

enum class MsgType : std::uint16_t {
  // handshake (docs/architecture.md §4)
  kHello = 1,
  kHelloAuth = 2,
  // membership and failure detection
  kHeartbeat = 10,
  kProbeRequest = 11,
  kProbeAck = 12,
  // task traffic
  kTaskMessage = 20,
  // job lifecycle between root and hosting nodes
  kCreateTasks = 30,
  kTasksCreated = 31,
  kStartJob = 32,
  kReductionContribution = 33,
  kReductionResult = 34,
  kTaskFinished = 35,
  kJobEnd = 36,
  // migration and location (docs/architecture.md §7)
  kMigrationOffer = 40,
  kMigrationAnswer = 41,
  kMigrationChunk = 42,
  kMigrationDone = 43,
  kLocationUpdate = 44,
  kLocationQuery = 45,
  kMigrateCommand = 46,
  kMigrationReport = 47,
  kTaskListRequest = 48,
  kTaskListReply = 49,
  // client (driftctl) <-> daemon
  kStatusRequest = 50,
  kStatusReply = 51,
  kRunRequest = 52,
  kJobProgress = 53,
  kJobResult = 54,
  kJobFailed = 55,
  kMigrateRequest = 56,
  kTasksRequest = 57,
  kTasksReply = 58,
  kJobNotice = 59,
  kJobAttach = 66,
  // balancing (docs/architecture.md §8)
  kBalanceRequest = 60,
  kBalanceReservation = 80,
  kGrainRequest = 81,
  // a job's worker process died on a node (node -> root)
  kWorkerLost = 82,
  // applications' executables shipped with jobs (app_messages.h)
  kAppOffer = 83,
  kAppOfferReply = 84,
  kAppPiece = 85,
  kAppStored = 86,
  kAppFetch = 87,
  // owner reclaim (docs/architecture.md §9), client <-> daemon
  kOwnerRequest = 64,
  kOwnerReply = 65,
  // testing only (driftctl fault run)
  kFrameFaultsRequest = 62,
  kFrameFaultsReply = 63,
  // checkpoints and recovery (docs/architecture.md §9)
  kCheckpointCopy = 70,
  kCheckpointAck = 71,
  kCheckpointCommit = 72,
  kJobRollback = 73,
  kRollbackReady = 74,
  kJobResume = 75,
  kJobRecord = 76,
  kNodeLeaving = 77,
  kDeputyOrder = 78,
  kCheckpointOffer = 79,
  kNodeLeft = 88,
  kNodeLeftAck = 89,
  kRefused = 90,
  // jobs that outlive their client (job_messages.h)
  kSubmitRequest = 91,
  kJobAccepted = 92,
  kJobCancel = 93,
  kJobListRequest = 94,
  kJobListReply = 95,
  kJobEnded = 96,
  kJobForget = 97,
  kQueuedJobRecord = 98,
  kJobActivity = 99,
  // daemon <-> worker process (worker_messages.h; frames of kWorkerProtocolVersion)
  kWorkerSetup = 100,
  kWorkerCreate = 101,
  kWorkerCreated = 102,
  kWorkerStart = 103,
  kWorkerTaskControl = 104,
  kWorkerPause = 105,
  kWorkerCapture = 106,
  kWorkerCaptureSized = 107,
  kWorkerCaptureDone = 108,
  kWorkerInstall = 109,
  kWorkerInstalled = 110,
  kWorkerStateBytes = 111,
  kWorkerStop = 112,
  kWorkerReady = 113,
  kWorkerEffects = 114,
};

const char* to_string(MsgType t);

}  // namespace drift
