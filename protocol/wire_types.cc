// Names of the wire enums for logs and error messages (wire_types.h, messages.h).
#include "protocol/wire_types.h"

#include "protocol/messages.h"

namespace drift {

const char* to_string(MemberState s) {
  switch (s) {
    case MemberState::kAlive:
      return "alive";
    case MemberState::kSuspect:
      return "suspect";
    case MemberState::kDead:
      return "dead";
  }
  return "unknown member state";
}

const char* to_string(OwnerState s) {
  switch (s) {
    case OwnerState::kAvailable:
      return "available";
    case OwnerState::kSuspended:
      return "suspended";
    case OwnerState::kDraining:
      return "draining";
    case OwnerState::kReclaimed:
      return "reclaimed";
  }
  return "unknown owner state";
}

const char* to_string(ProbeEvidence e) {
  switch (e) {
    case ProbeEvidence::kAnswered:
      return "answered";
    case ProbeEvidence::kHeartbeat:
      return "heartbeat";
  }
  return "unknown probe evidence";
}

const char* to_string(MsgType t) {
  switch (t) {
    case MsgType::kHello:
      return "Hello";
    case MsgType::kHelloAuth:
      return "HelloAuth";
    case MsgType::kHeartbeat:
      return "Heartbeat";
    case MsgType::kProbeRequest:
      return "ProbeRequest";
    case MsgType::kProbeAck:
      return "ProbeAck";
    case MsgType::kTaskMessage:
      return "TaskMessage";
    case MsgType::kCreateTasks:
      return "CreateTasks";
    case MsgType::kTasksCreated:
      return "TasksCreated";
    case MsgType::kStartJob:
      return "StartJob";
    case MsgType::kReductionContribution:
      return "ReductionContribution";
    case MsgType::kReductionResult:
      return "ReductionResult";
    case MsgType::kTaskFinished:
      return "TaskFinished";
    case MsgType::kJobEnd:
      return "JobEnd";
    case MsgType::kStatusRequest:
      return "StatusRequest";
    case MsgType::kStatusReply:
      return "StatusReply";
    case MsgType::kRunRequest:
      return "RunRequest";
    case MsgType::kJobProgress:
      return "JobProgress";
    case MsgType::kJobResult:
      return "JobResult";
    case MsgType::kJobFailed:
      return "JobFailed";
    case MsgType::kMigrationOffer:
      return "MigrationOffer";
    case MsgType::kMigrationAnswer:
      return "MigrationAnswer";
    case MsgType::kMigrationChunk:
      return "MigrationChunk";
    case MsgType::kMigrationDone:
      return "MigrationDone";
    case MsgType::kLocationUpdate:
      return "LocationUpdate";
    case MsgType::kLocationQuery:
      return "LocationQuery";
    case MsgType::kMigrateCommand:
      return "MigrateCommand";
    case MsgType::kMigrationReport:
      return "MigrationReport";
    case MsgType::kTaskListRequest:
      return "TaskListRequest";
    case MsgType::kTaskListReply:
      return "TaskListReply";
    case MsgType::kMigrateRequest:
      return "MigrateRequest";
    case MsgType::kTasksRequest:
      return "TasksRequest";
    case MsgType::kTasksReply:
      return "TasksReply";
    case MsgType::kBalanceRequest:
      return "BalanceRequest";
    case MsgType::kBalanceReservation:
      return "BalanceReservation";
    case MsgType::kGrainRequest:
      return "GrainRequest";
    case MsgType::kJobNotice:
      return "JobNotice";
    case MsgType::kCheckpointCopy:
      return "CheckpointCopy";
    case MsgType::kCheckpointAck:
      return "CheckpointAck";
    case MsgType::kCheckpointCommit:
      return "CheckpointCommit";
    case MsgType::kJobRollback:
      return "JobRollback";
    case MsgType::kRollbackReady:
      return "RollbackReady";
    case MsgType::kJobResume:
      return "JobResume";
    case MsgType::kJobRecord:
      return "JobRecord";
    case MsgType::kJobAttach:
      return "JobAttach";
    case MsgType::kNodeLeaving:
      return "NodeLeaving";
    case MsgType::kNodeLeft:
      return "NodeLeft";
    case MsgType::kRefused:
      return "Refused";
    case MsgType::kSubmitRequest:
      return "SubmitRequest";
    case MsgType::kJobAccepted:
      return "JobAccepted";
    case MsgType::kJobCancel:
      return "JobCancel";
    case MsgType::kJobListRequest:
      return "JobListRequest";
    case MsgType::kJobListReply:
      return "JobListReply";
    case MsgType::kJobEnded:
      return "JobEnded";
    case MsgType::kJobForget:
      return "JobForget";
    case MsgType::kQueuedJobRecord:
      return "QueuedJobRecord";
    case MsgType::kJobActivity:
      return "JobActivity";
    case MsgType::kNodeLeftAck:
      return "NodeLeftAck";
    case MsgType::kDeputyOrder:
      return "DeputyOrder";
    case MsgType::kCheckpointOffer:
      return "CheckpointOffer";
    case MsgType::kAppOffer:
      return "AppOffer";
    case MsgType::kAppOfferReply:
      return "AppOfferReply";
    case MsgType::kAppPiece:
      return "AppPiece";
    case MsgType::kAppStored:
      return "AppStored";
    case MsgType::kAppFetch:
      return "AppFetch";
    case MsgType::kWorkerLost:
      return "WorkerLost";
    case MsgType::kWorkerSetup:
      return "WorkerSetup";
    case MsgType::kWorkerCreate:
      return "WorkerCreate";
    case MsgType::kWorkerCreated:
      return "WorkerCreated";
    case MsgType::kWorkerStart:
      return "WorkerStart";
    case MsgType::kWorkerTaskControl:
      return "WorkerTaskControl";
    case MsgType::kWorkerPause:
      return "WorkerPause";
    case MsgType::kWorkerCapture:
      return "WorkerCapture";
    case MsgType::kWorkerCaptureSized:
      return "WorkerCaptureSized";
    case MsgType::kWorkerCaptureDone:
      return "WorkerCaptureDone";
    case MsgType::kWorkerInstall:
      return "WorkerInstall";
    case MsgType::kWorkerInstalled:
      return "WorkerInstalled";
    case MsgType::kWorkerStateBytes:
      return "WorkerStateBytes";
    case MsgType::kWorkerStop:
      return "WorkerStop";
    case MsgType::kWorkerReady:
      return "WorkerReady";
    case MsgType::kWorkerEffects:
      return "WorkerEffects";
    case MsgType::kFrameFaultsRequest:
      return "FrameFaultsRequest";
    case MsgType::kFrameFaultsReply:
      return "FrameFaultsReply";
    case MsgType::kOwnerRequest:
      return "OwnerRequest";
    case MsgType::kOwnerReply:
      return "OwnerReply";
  }
  return "unknown message type";
}

const char* to_string(JobState s) {
  switch (s) {
    case JobState::kQueued: return "queued";
    case JobState::kRunning: return "running";
    case JobState::kRecovering: return "recovering";
    case JobState::kDone: return "done";
    case JobState::kFailed: return "failed";
    case JobState::kCancelled: return "cancelled";
  }
  return "unknown";
}

const char* to_string(OwnerAction a) {
  switch (a) {
    case OwnerAction::kReclaim:
      return "reclaim";
    case OwnerAction::kRelease:
      return "release";
  }
  return "unknown owner action";
}

const char* to_string(PeerRole r) {
  switch (r) {
    case PeerRole::kNode:
      return "node";
    case PeerRole::kClient:
      return "client";
  }
  return "unknown peer role";
}

}  // namespace drift
