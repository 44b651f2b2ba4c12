// The root's side of a job (DESIGN.md §6): places the tasks on live nodes in proportion to their
// capacity, creates them everywhere before any starts, combines each step's reduction in
// task-index order (so the values are the same for any placement) and broadcasts it, reports
// progress to the client, gathers the tasks' results into the checksum, and ends the job on every
// node. A job that loses a hosting node fails with a message naming it (recovery is later work).
// Network thread only.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "node/application.h"
#include "node/messenger.h"
#include "node/peer_connection.h"
#include "protocol/messages.h"

namespace drift {

struct PlacementCandidate {
  std::uint32_t node_id = 0;
  std::string name;
  double capacity = 1;
};

class JobCoordinator {
 public:
  using CandidateSource = std::function<std::vector<PlacementCandidate>()>;

  JobCoordinator(Messenger& messenger, const AppRegistry& apps, CandidateSource candidates);

  void submit(RunRequest request, const ConnectionPtr& client);
  void on_tasks_created(const TasksCreated& msg);
  void on_contribution(const ReductionContribution& msg);
  void on_task_finished(const TaskFinished& msg);
  void on_task_failed(std::uint32_t from_node, const JobFailed& msg);
  void on_node_dead(std::uint32_t node_id, const std::string& name);
  void on_client_closed(const ConnectionPtr& client);

  std::size_t active_jobs() const { return jobs_.size(); }
  // The node hosting each task of a job this node coordinates (empty if unknown).
  const std::vector<std::uint32_t>* placement(std::uint64_t job) const;

 private:
  struct StepReduction {
    std::vector<std::optional<std::vector<double>>> by_task;
    std::uint32_t received = 0;
  };
  struct Job {
    std::uint64_t id = 0;
    JobSpec spec;
    const Application* app = nullptr;
    std::vector<std::uint32_t> placement;
    std::set<std::uint32_t> nodes;
    std::set<std::uint32_t> created;
    std::map<std::uint64_t, StepReduction> steps;
    std::vector<std::optional<std::vector<std::uint8_t>>> results;
    std::uint32_t finished = 0;
    bool started = false;
    ConnectionPtr client;
    std::chrono::steady_clock::time_point begin;
  };

  std::uint64_t next_job_id();
  void complete_step(Job& job, std::uint64_t step);
  void complete_job(Job& job);
  void fail(std::uint64_t job_id, const std::string& reason);
  void end_everywhere(const Job& job, bool failed, const std::string& reason);
  void reply(const ConnectionPtr& client, WireMessage msg);
  Job* find(std::uint64_t id);

  Messenger& messenger_;
  const AppRegistry& apps_;
  CandidateSource candidates_;
  std::map<std::uint64_t, Job> jobs_;
  std::uint64_t counter_ = 0;
};

}  // namespace drift
