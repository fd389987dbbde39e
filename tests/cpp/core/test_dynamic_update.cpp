// The shared dynamic-update policy (core/dynamic_update.hpp) driven by scripted steps: which step
// runs when, what the state looks like after each outcome, and what reaches the caller. Every
// algorithm's update() relies on exactly these rules.
#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/errors.hpp"

namespace {

struct log_t {
  int64_t num_vertices_before = 0;
  int64_t num_vertices_after = 0;
};

struct stats_t : dyng::update_stats_t {
  int64_t carried = 0;  // set by the repair; the recompute keeps it
};

enum class outcome_t { done, over_budget, throws };

/// A result of `size` entries (0 = untouched); the script says how repair and recompute end.
struct scripted_steps_t {
  using stats_type = stats_t;

  std::vector<int> state;
  std::vector<int> before_repair;
  outcome_t repair_outcome = outcome_t::done;
  bool recompute_throws = false;
  double default_fraction = 0.5;
  int64_t scale = 100;
  std::vector<std::string> calls;
  int64_t budget_seen = -1;

  int64_t result_vertices() const { return static_cast<int64_t>(state.size()); }
  int64_t work_scale() const { return scale; }
  double default_budget() const { return default_fraction; }
  void grow(int64_t n) {
    calls.push_back("grow");
    state.resize(static_cast<size_t>(n), 0);
  }
  void shrink(int64_t n) noexcept {
    calls.push_back("shrink");
    state.resize(static_cast<size_t>(n));
  }
  bool repair(const log_t&, int64_t budget, stats_t& stats) {
    calls.push_back("repair");
    budget_seen = budget;
    before_repair = state;
    for (int& x : state) x += 1;  // partly repaired
    stats.carried = 7;
    stats.affected = 3;
    if (repair_outcome == outcome_t::throws) throw dyng::invalid_argument_error("bad edge");
    return repair_outcome == outcome_t::done;
  }
  void undo() noexcept {
    calls.push_back("undo");
    if (!before_repair.empty() || state.empty()) state = before_repair;
  }
  void recompute(stats_t& stats) {
    calls.push_back("recompute");
    if (recompute_throws) throw std::runtime_error("device lost");
    for (int& x : state) x = 9;
    stats.affected = static_cast<int64_t>(state.size());
  }
};

std::string joined(const std::vector<std::string>& calls) {
  std::string out;
  for (const auto& c : calls) out += (out.empty() ? "" : ",") + c;
  return out;
}

DYNG_TEST("a repair within budget is the answer, path incremental") {
  scripted_steps_t s;
  s.state = {1, 2};
  const stats_t stats = dyng::run_update(s, log_t{2, 3}, 3, -1.0, "t()");
  CHECK_EQ(joined(s.calls), std::string("grow,repair"));
  CHECK(stats.path == dyng::update_path_t::incremental);
  CHECK(!stats.fallback_used);
  CHECK_EQ(stats.affected, 3);
  CHECK_EQ(s.budget_seen, 50);  // the steps' default fraction of their work scale
  CHECK((s.state == std::vector<int>{2, 3, 1}));
}

DYNG_TEST("a repair over budget is undone, then the result is recomputed") {
  scripted_steps_t s;
  s.state = {1, 2};
  s.repair_outcome = outcome_t::over_budget;
  const stats_t stats = dyng::run_update(s, log_t{2, 2}, 2, 0.25, "t()");
  CHECK_EQ(joined(s.calls), std::string("grow,repair,undo,recompute"));
  CHECK_EQ(s.budget_seen, 25);
  CHECK(stats.path == dyng::update_path_t::recompute);
  CHECK(stats.fallback_used);
  CHECK_EQ(stats.carried, 7);  // what the abandoned repair learnt stays
  CHECK_EQ(stats.affected, 2);
  CHECK((s.state == std::vector<int>{9, 9}));
}

DYNG_TEST("a budget of 0 recomputes without repairing") {
  scripted_steps_t s;
  s.state = {1};
  const stats_t stats = dyng::run_update(s, log_t{1, 1}, 1, 0.0, "t()");
  CHECK_EQ(joined(s.calls), std::string("grow,undo,recompute"));
  CHECK(stats.path == dyng::update_path_t::recompute);
}

DYNG_TEST("a repair that throws leaves the state as it was, size included") {
  scripted_steps_t s;
  s.state = {1, 2};
  s.repair_outcome = outcome_t::throws;
  CHECK_THROWS_AS(dyng::run_update(s, log_t{2, 4}, 4, -1.0, "t()"), dyng::invalid_argument_error);
  CHECK_EQ(joined(s.calls), std::string("grow,repair,undo,shrink"));
  CHECK((s.state == std::vector<int>{1, 2}));
}

DYNG_TEST("a recompute that throws is shrunk back and the error propagates") {
  scripted_steps_t s;
  s.state = {1, 2};
  s.repair_outcome = outcome_t::over_budget;
  s.recompute_throws = true;
  CHECK_THROWS_AS(dyng::run_update(s, log_t{2, 3}, 3, -1.0, "t()"), std::runtime_error);
  CHECK_EQ(joined(s.calls), std::string("grow,repair,undo,recompute,shrink"));
  CHECK((s.state == std::vector<int>{1, 2}));
}

DYNG_TEST("sizes that do not match the log are refused before anything changes") {
  scripted_steps_t s;
  s.state = {1, 2};
  bool named = false;
  try {
    dyng::run_update(s, log_t{3, 4}, 4, -1.0, "algo.update()");
  } catch (const dyng::invalid_argument_error& e) {
    const std::string m = e.what();
    named = m.find("algo.update(): the result covers 2 vertices") == 0 &&
            m.find("from 3 to 4") != std::string::npos;
  }
  CHECK(named);
  CHECK_THROWS_AS(dyng::run_update(s, log_t{2, 3}, 4, -1.0, "t()"), dyng::invalid_argument_error);
  CHECK_THROWS_AS(dyng::run_update(s, log_t{2, 1}, 1, -1.0, "t()"), dyng::invalid_argument_error);
  CHECK(s.calls.empty());
  CHECK((s.state == std::vector<int>{1, 2}));
}

/// Steps whose recompute overwrites everything: no undo before it, but still one on a throw.
struct overwriting_steps_t : scripted_steps_t {
  static constexpr bool k_recompute_overwrites = true;
};

DYNG_TEST("steps whose recompute overwrites the state skip the undo before it") {
  overwriting_steps_t s;
  s.state = {1, 2};
  s.repair_outcome = outcome_t::over_budget;
  dyng::run_update(s, log_t{2, 2}, 2, -1.0, "t()");
  CHECK_EQ(joined(s.calls), std::string("grow,repair,recompute"));
  overwriting_steps_t t;
  t.state = {1, 2};
  t.repair_outcome = outcome_t::throws;
  CHECK_THROWS_AS(dyng::run_update(t, log_t{2, 2}, 2, -1.0, "t()"), dyng::invalid_argument_error);
  CHECK_EQ(joined(t.calls), std::string("grow,repair,undo,shrink"));
  CHECK((t.state == std::vector<int>{1, 2}));
}

DYNG_TEST("budgets saturate instead of overflowing") {
  scripted_steps_t s;
  s.state = {0};
  s.scale = int64_t{1} << 62;
  dyng::run_update(s, log_t{1, 1}, 1, 1e9, "t()");
  CHECK_EQ(s.budget_seen, int64_t{1} << 62);
}

}  // namespace

DYNG_TEST_MAIN()
