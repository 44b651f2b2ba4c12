// Parsing of fault lines and their values (fault_line_parser.h).
#include "ctl/fault_line_parser.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <vector>

namespace drift::ctl {

namespace {

Result<double> parse_number(const std::string& text, const std::string& what) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v) || v < 0) {
    return Status::error("'" + text + "' is not " + what);
  }
  return v;
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The words of a line, consumed from the front; errors say what was expected where.
class Words {
 public:
  explicit Words(std::vector<std::string> words) : words_(std::move(words)) {}
  bool done() const { return next_ >= words_.size(); }
  const std::string& peek() const { return words_[next_]; }
  Result<std::string> take(const std::string& expected) {
    if (done()) return Status::error("missing " + expected + " at the end of the line");
    return words_[next_++];
  }

 private:
  std::vector<std::string> words_;
  std::size_t next_ = 0;
};

Result<std::vector<int>> parse_node_list(const std::string& text, int nodes) {
  std::vector<int> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    auto ref = parse_node_ref(item, nodes);
    if (!ref) return ref.status();
    if (ref->kind != NodeRef::Kind::kNode) {
      return Status::error("'" + item + "' in '" + text + "': a partition names its nodes");
    }
    out.push_back(ref->node);
  }
  if (out.empty()) return Status::error("'" + text + "' names no node");
  return out;
}

Result<double> parse_optional_for(Words& w) {
  if (w.done()) return 0.0;
  auto word = w.take("'for'");
  if (*word != "for") return Status::error("unexpected '" + *word + "' (expected 'for DURATION')");
  auto d = w.take("a duration after 'for'");
  if (!d) return d.status();
  return parse_duration(*d);
}

Status parse_partition(Words& w, int nodes, FaultAction& a) {
  auto left = w.take("the nodes to cut off (e.g. 1,2)");
  if (!left) return left.status();
  auto side_a = parse_node_list(*left, nodes);
  if (!side_a) return side_a.status();
  a.side_a = *side_a;
  auto bar = w.take("'|' and the other side");
  if (!bar) return bar.status();
  if (*bar != "|") return Status::error("unexpected '" + *bar + "' (expected '|')");
  auto right = w.take("the other side ('rest' or a node list)");
  if (!right) return right.status();
  if (*right != "rest") {
    auto side_b = parse_node_list(*right, nodes);
    if (!side_b) return side_b.status();
    a.side_b = *side_b;
    for (int n : a.side_b) {
      for (int m : a.side_a) {
        if (n == m) return Status::error("node " + std::to_string(n) + " is on both sides");
      }
    }
  }
  if (static_cast<int>(a.side_a.size()) >= nodes) {
    return Status::error("'" + *left + "' leaves no node on the other side");
  }
  auto d = parse_optional_for(w);
  if (!d) return d.status();
  a.duration_s = *d;
  return Status::ok();
}

Result<FaultAction> parse_action(Words& w, int nodes) {
  auto verb = w.take(
      "an action (kill, stop, cont, restart, partition, drop, delay, duplicate, hog, migrate)");
  if (!verb) return verb.status();
  FaultAction a;
  const std::string& v = *verb;
  if (v == "migrate") {
    // migrate TASK to N
    a.kind = FaultKind::kMigrate;
    auto task = w.take("the task's index in the running job");
    if (!task) return task.status();
    auto index = parse_number(*task, "a task index");
    if (!index || *index < 0 || *index != std::floor(*index) || *index > 4294967295.0) {
      return Status::error("migrate '" + *task + "': expected a task index (0, 1, ...)");
    }
    a.task = static_cast<std::uint32_t>(*index);
    auto to = w.take("'to'");
    if (!to) return to.status();
    if (*to != "to") return Status::error("migrate " + *task + " '" + *to + "': expected 'to N'");
    auto who = w.take("the destination node");
    if (!who) return who.status();
    auto ref = parse_node_ref(*who, nodes);
    if (!ref) return ref.status();
    a.target = *ref;
    return a;
  }
  if (v == "kill" || v == "stop" || v == "cont" || v == "restart" || v == "hog") {
    a.kind = v == "kill"   ? FaultKind::kKill
             : v == "stop" ? FaultKind::kStop
             : v == "cont" ? FaultKind::kCont
             : v == "hog"  ? FaultKind::kHog
                           : FaultKind::kRestart;
    auto who = w.take("the node to " + v + " (N, root, random or worker)");
    if (!who) return who.status();
    auto ref = parse_node_ref(*who, nodes);
    if (!ref) return ref.status();
    a.target = *ref;
    if (a.kind == FaultKind::kRestart && ref->kind != NodeRef::Kind::kNode) {
      return Status::error("restart '" + *who + "': restart names the node (a number)");
    }
  } else if (v == "partition") {
    a.kind = FaultKind::kPartition;
    if (Status s = parse_partition(w, nodes, a); !s) return s;
    return a;
  } else if (v == "drop" || v == "duplicate" || v == "delay") {
    a.kind = v == "drop" ? FaultKind::kDrop : v == "delay" ? FaultKind::kDelay : FaultKind::kDuplicate;
    auto amount = w.take(v == "delay" ? "a delay (e.g. 5ms)" : "a fraction (e.g. 0.01)");
    if (!amount) return amount.status();
    auto value = v == "delay" ? parse_duration(*amount) : parse_fraction(*amount);
    if (!value) return value.status();
    a.value = v == "delay" ? *value * 1000 : *value;
  } else {
    return Status::error("unknown action '" + v +
                         "' (expected kill, stop, cont, restart, partition, drop, delay, "
                         "duplicate, hog or migrate)");
  }
  if (a.kind == FaultKind::kKill || a.kind == FaultKind::kStop || a.kind == FaultKind::kDrop ||
      a.kind == FaultKind::kDelay || a.kind == FaultKind::kDuplicate || a.kind == FaultKind::kHog) {
    auto d = parse_optional_for(w);
    if (!d) return d.status();
    a.duration_s = *d;
  }
  return a;
}

Result<FaultTrigger> parse_trigger(Words& w) {
  auto first = w.take("'at' or 'every'");
  if (!first) return first.status();
  FaultTrigger t;
  if (*first == "every") {
    auto range = w.take("a gap range (e.g. 30s..60s)");
    if (!range) return range.status();
    const auto dots = range->find("..");
    auto lo = parse_duration(range->substr(0, dots));
    auto hi = dots == std::string::npos ? lo : parse_duration(range->substr(dots + 2));
    if (!lo) return lo.status();
    if (!hi) return hi.status();
    if (*lo <= 0 || *hi < *lo) {
      return Status::error("'" + *range + "': expected MIN..MAX with 0 < MIN <= MAX");
    }
    t.kind = FaultTrigger::Kind::kEvery;
    t.every_min_s = *lo;
    t.every_max_s = *hi;
    return t;
  }
  if (*first != "at") {
    return Status::error("'" + *first + "': a fault line starts with 'at' or 'every'");
  }
  auto when = w.take("a time (e.g. 2.5s) or 'step N'");
  if (!when) return when.status();
  if (*when == "step") {
    auto n = w.take("the step number");
    if (!n) return n.status();
    auto step = parse_number(*n, "a step number");
    if (!step || *step != std::floor(*step)) {
      return Status::error("step '" + *n + "' is not a whole number");
    }
    t.kind = FaultTrigger::Kind::kStep;
    t.step = static_cast<std::uint64_t>(*step);
    return t;
  }
  auto at = parse_duration(*when);
  if (!at) return at.status();
  t.at_s = *at;
  return t;
}

}  // namespace

std::string NodeRef::text() const {
  switch (kind) {
    case Kind::kRoot: return "root";
    case Kind::kRandom: return "random";
    case Kind::kWorker: return "worker";
    case Kind::kNode: break;
  }
  return "node" + std::to_string(node);
}

const char* to_string(FaultKind kind) {
  switch (kind) {
    case FaultKind::kKill: return "kill";
    case FaultKind::kStop: return "stop";
    case FaultKind::kCont: return "cont";
    case FaultKind::kRestart: return "restart";
    case FaultKind::kPartition: return "partition";
    case FaultKind::kDrop: return "drop";
    case FaultKind::kDelay: return "delay";
    case FaultKind::kDuplicate: return "duplicate";
    case FaultKind::kHog: return "hog";
    case FaultKind::kMigrate: return "migrate";
  }
  return "?";
}

Result<double> parse_duration(const std::string& word) {
  double scale = 1;
  std::string number = word;
  if (word.ends_with("ms")) {
    scale = 0.001, number = word.substr(0, word.size() - 2);
  } else if (word.ends_with("s")) {
    number = word.substr(0, word.size() - 1);
  } else if (word.ends_with("m")) {
    scale = 60, number = word.substr(0, word.size() - 1);
  } else {
    return Status::error("duration '" + word + "' needs a unit: ms, s or m (e.g. 2.5s)");
  }
  auto v = parse_number(number, "a number");
  if (!v) return Status::error("duration '" + word + "': " + v.error());
  return *v * scale;
}

Result<double> parse_fraction(const std::string& word) {
  auto v = parse_number(word, "a fraction");
  if (!v || *v > 1) return Status::error("fraction '" + word + "' must be a number in 0..1");
  return *v;
}

Result<NodeRef> parse_node_ref(const std::string& word, int nodes) {
  if (word == "root") return NodeRef{NodeRef::Kind::kRoot, 0};
  if (word == "random") return NodeRef{NodeRef::Kind::kRandom, 0};
  if (word == "worker") return NodeRef{NodeRef::Kind::kWorker, 0};
  const std::string digits = word.starts_with("node") ? word.substr(4) : word;
  int n = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size()) {
    return Status::error("node '" + word + "': expected N, nodeN, root, random or worker");
  }
  if (n < 1 || n > nodes) {
    return Status::error("node '" + word + "': the cluster has nodes 1.." + std::to_string(nodes));
  }
  return NodeRef{NodeRef::Kind::kNode, n};
}

Result<FaultEntry> parse_fault_line(const std::string& line, int nodes) {
  Words w(words_of(line));
  FaultEntry e;
  e.text = line;
  auto trigger = parse_trigger(w);
  if (!trigger) return trigger.status();
  e.when = *trigger;
  auto action = parse_action(w, nodes);
  if (!action) return action.status();
  e.action = *action;
  if (!w.done()) return Status::error("unexpected '" + w.peek() + "' after the action");
  if (e.when.kind == FaultTrigger::Kind::kEvery && e.action.kind != FaultKind::kKill &&
      e.action.kind != FaultKind::kStop && e.action.kind != FaultKind::kPartition) {
    return Status::error("'every' repeats kill, stop or partition, not " +
                         std::string(to_string(e.action.kind)));
  }
  return e;
}

}  // namespace drift::ctl
