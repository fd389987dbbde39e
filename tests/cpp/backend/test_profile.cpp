// The profiler's core (backend/profile.hpp): stages record only inside a profile context whose
// execution points at a session, nest per thread, keep their begin order, and leave nothing
// behind when no context is open; counters add up; reset starts over; run_update's own stages.
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/core/dynamic_update.hpp"

namespace {

using dyng::execution_t;
using dyng::profile_context_t;
using dyng::profile_session_t;
using dyng::stage_scope_t;

execution_t profiled(profile_session_t& session) {
  execution_t exec;
  exec.profiler.set(&session);
  return exec;
}

std::vector<std::string> names_of(profile_session_t& session) {
  std::vector<std::string> names;
  for (const auto& s : session.samples()) names.emplace_back(s.name);
  return names;
}

DYNG_TEST("no context: stages and counters record nothing") {
  profile_session_t session({});
  const execution_t exec = profiled(session);
  (void)exec;
  {
    stage_scope_t stage("a.stage");
    dyng::count_in_profile("a.counter", 3);
  }
  CHECK(session.samples().empty());
  CHECK(session.counters().empty());
}

DYNG_TEST("an execution without a session opens no context") {
  profile_session_t session({});
  const execution_t plain;
  {
    profile_context_t context(plain);
    stage_scope_t stage("a.stage");
  }
  CHECK(session.samples().empty());
  CHECK_EQ(dyng::profile_detail::open_contexts.load(), 0);
}

DYNG_TEST("stages nest: depth, end order of samples, begin order indices") {
  profile_session_t session({});
  const execution_t exec = profiled(session);
  {
    profile_context_t context(exec);
    stage_scope_t outer("x.outer");
    {
      stage_scope_t first("x.first");
    }
    {
      stage_scope_t second("x.second");
      stage_scope_t inner(std::string_view("x"), ".inner");
    }
  }
  const auto samples = session.samples();
  CHECK_EQ(samples.size(), size_t{4});
  CHECK(
      (names_of(session) == std::vector<std::string>{"x.first", "x.inner", "x.second", "x.outer"}));
  CHECK_EQ(samples[0].depth, 1);
  CHECK_EQ(samples[1].depth, 2);
  CHECK_EQ(samples[2].depth, 1);
  CHECK_EQ(samples[3].depth, 0);
  CHECK_EQ(samples[3].begin_index, 0);
  CHECK_EQ(samples[0].begin_index, 1);
  CHECK_EQ(samples[2].begin_index, 2);
  CHECK_EQ(samples[1].begin_index, 3);
  // The outer stage starts first and lasts at least as long as everything inside it.
  CHECK(samples[3].start_ms <= samples[0].start_ms);
  CHECK(samples[3].host_ms >= samples[2].host_ms);
  CHECK(samples[0].device_ms == 0.0);
}

DYNG_TEST("nested contexts: the inner session gets the inner stages, then the outer resumes") {
  profile_session_t outer_session({});
  profile_session_t inner_session({});
  const execution_t outer_exec = profiled(outer_session);
  const execution_t inner_exec = profiled(inner_session);
  {
    profile_context_t outer(outer_exec);
    stage_scope_t a("o.before");
    {
      profile_context_t inner(inner_exec);
      stage_scope_t b("i.stage");
    }
    stage_scope_t c("o.after");
  }
  CHECK((names_of(inner_session) == std::vector<std::string>{"i.stage"}));
  CHECK((names_of(outer_session) == std::vector<std::string>{"o.after", "o.before"}));
  CHECK_EQ(inner_session.samples()[0].depth, 0);
  CHECK_EQ(dyng::profile_detail::open_contexts.load(), 0);
}

DYNG_TEST("other threads are not profiled by this thread's context") {
  profile_session_t session({});
  const execution_t exec = profiled(session);
  profile_context_t context(exec);
  std::thread other([] { stage_scope_t stage("t.other"); });
  other.join();
  {
    stage_scope_t stage("t.mine");
  }
  CHECK((names_of(session) == std::vector<std::string>{"t.mine"}));
}

DYNG_TEST("counters add up in first-use order; reset drops samples and counters") {
  profile_session_t session({});
  const execution_t exec = profiled(session);
  {
    profile_context_t context(exec);
    dyng::count_in_profile("c.second", 2);
    dyng::count_in_profile("c.first", 1);
    dyng::count_in_profile("c.second", 5);
    stage_scope_t stage("c.stage");
  }
  const auto counters = session.counters();
  CHECK_EQ(counters.size(), size_t{2});
  CHECK(counters[0].first == "c.second" && counters[0].second == 7);
  CHECK(counters[1].first == "c.first" && counters[1].second == 1);
  session.reset();
  CHECK(session.samples().empty());
  CHECK(session.counters().empty());
  {
    profile_context_t context(exec);
    stage_scope_t stage("c.again");
  }
  CHECK_EQ(session.samples().size(), size_t{1});
  CHECK_EQ(session.samples()[0].begin_index, 0);
}

DYNG_TEST("algorithm_of_call") {
  CHECK(dyng::algorithm_of_call("sssp.update()") == "sssp");
  CHECK(dyng::algorithm_of_call("cycle_count.update()") == "cycle_count");
  CHECK(dyng::algorithm_of_call("sssp::cuda::update()") == "sssp");
  CHECK(dyng::algorithm_of_call("plain") == "plain");
}

// Steps whose repair gives up at once, so run_update undoes and recomputes.
struct giving_up_steps_t {
  using stats_type = dyng::update_stats_t;
  int64_t vertices = 2;
  int64_t result_vertices() const { return vertices; }
  int64_t work_scale() const { return 10; }
  double default_budget() const { return 0.5; }
  void grow(int64_t n) { vertices = n; }
  void shrink(int64_t n) { vertices = n; }
  template <class log_t>
  bool repair(const log_t&, int64_t, stats_type&) {
    stage_scope_t stage("algo.search");
    return false;
  }
  void undo() {}
  void recompute(stats_type&) {}
};

struct log_t {
  int64_t num_vertices_before;
  int64_t num_vertices_after;
};

DYNG_TEST("run_update's stages: repair around all, undo and recompute on fallback") {
  profile_session_t session({});
  const execution_t exec = profiled(session);
  giving_up_steps_t steps;
  {
    profile_context_t context(exec);
    dyng::run_update(steps, log_t{2, 2}, 2, -1.0, "algo.update()");
  }
  CHECK((names_of(session) ==
         std::vector<std::string>{"algo.search", "algo.undo", "algo.recompute", "algo.repair"}));
  const auto counters = session.counters();
  CHECK(counters.size() == 1 && counters[0].first == "update.recomputes" &&
        counters[0].second == 1);
}

}  // namespace

DYNG_TEST_MAIN()
