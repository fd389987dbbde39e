// Host entry points of components (sequential and OpenMP backends), with update() as the shared
// dynamic-update policy over the weak or the strong repair (core/host_steps.hpp).
//
// Strong components run Tarjan on one core on both host backends. Forward-backward with trimming
// is the method of a team, but it pays only when many large components can be peeled in
// parallel, and each of its rounds reads the remaining graph again; Tarjan reads each edge once.
// The team's method comes with the GPU slice, which needs forward-backward anyway; until then the
// OpenMP backend gives the same canonical labels from the same kernel.
#include "dyng/components/components.hpp"

#include <cstdint>
#include <string>

#include "dyng/components/detail/call_checks.hpp"
#include "dyng/components/detail/strong_repair.hpp"
#include "dyng/components/detail/tarjan.hpp"
#include "dyng/components/detail/union_find.hpp"
#include "dyng/components/detail/weak_repair.hpp"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/entry_points.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/host_steps.hpp"
#include "dyng/core/stage_scope.hpp"

namespace dyng::components {

namespace {

template <class vid_t, class eid_t>
void check_call(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, const char* fn) {
  check_host_backend(exec, fn);
  detail::check_graph(graph, options, fn);
}

/// Strong components of the whole graph into `state` by Tarjan; returns the edges examined. A
/// vertex without in-edges or without out-edges is a component of its own (no cycle passes
/// through it), labelled before the search, which then never enters it.
template <class vid_t, class eid_t>
int64_t strong_into(const graph_t<vid_t, eid_t>& graph, const execution_t& exec,
                    state_t<vid_t>& state) {
  const auto n = static_cast<int64_t>(graph.num_vertices());
  const auto out = graph.out_view();
  const auto in = graph.in_view();
  detail::tarjan_t<vid_t, eid_t> tarjan(out, exec.cancel);
  state.labels.assign(static_cast<size_t>(n), 0);
  state.sizes.assign(static_cast<size_t>(n), 0);
  state.count = 0;
  for (int64_t v = 0; v < n; ++v) {
    const auto u = static_cast<vid_t>(v);
    if (out.degree(u) != 0 && in.degree(u) != 0) continue;
    state.labels[static_cast<size_t>(v)] = v;
    state.sizes[static_cast<size_t>(v)] = 1;
    ++state.count;
    tarjan.set_finished(u);
  }
  const auto all = [](vid_t) { return true; };
  const auto emit = [&](const vid_t* first, const vid_t* last) {
    int64_t smallest = *first;
    for (const vid_t* v = first; v != last; ++v) smallest = *v < smallest ? *v : smallest;
    for (const vid_t* v = first; v != last; ++v) state.labels[static_cast<size_t>(*v)] = smallest;
    state.sizes[static_cast<size_t>(smallest)] = last - first;
    ++state.count;
  };
  for (int64_t v = 0; v < n; ++v) tarjan.search(static_cast<vid_t>(v), all, emit);
  return tarjan.edges();
}

/// The whole graph's components into `state` (checks done).
template <class vid_t, class eid_t>
stats_t compute_into(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                     const execution_t& exec, state_t<vid_t>& state) {
  stats_t stats;
  const auto n = static_cast<int64_t>(graph.num_vertices());
  state.kind = options.kind;
  if (options.kind == kind_t::weak) {
    const stage_scope_t stage("components.union_find");
    const int threads = host_team_size(exec, static_cast<int64_t>(graph.num_edges()),
                                       options.min_parallel_edges(k_default_parallel_min_edges));
    stats.frontier_visits = detail::union_find(graph.out_view(), threads, exec.cancel, state);
    stats.record(threads > 1 ? engine_t{"fused", "union_find"}
                             : engine_t{"operators", "union_find"});
  } else {
    const stage_scope_t stage("components.tarjan");
    stats.frontier_visits = strong_into(graph, exec, state);
    stats.record(engine_t{"operators", "tarjan"});
  }
  stats.affected = n;
  stats.iterations = 1;
  return stats;
}

/// The weak or the strong repair behind one interface for host_steps_t.
template <class vid_t, class eid_t>
struct repair_t {
  detail::weak_repair_t<vid_t, eid_t> weak;
  detail::strong_repair_t<vid_t, eid_t> strong;
  kind_t kind;

  bool run(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    return kind == kind_t::weak ? weak.run(log, budget, stats) : strong.run(log, budget, stats);
  }
  void undo() noexcept { kind == kind_t::weak ? weak.undo() : strong.undo(); }
};

}  // namespace

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state) {
  check_call(graph, options, exec, "components.compute()");
  return compute_into(graph, options, exec, state);
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "components.update()";
  check_call(graph, options, exec, fn);
  detail::check_kind(state.kind, options, fn);
  const bool directed = graph.properties().directed;
  const auto out = graph.out_view();
  const auto in = in_edges_view(graph, directed);
  repair_t<vid_t, eid_t> repair{
      {out, in, directed, state, exec.cancel}, {out, in, state, exec.cancel}, options.kind};
  auto recompute = [&](state_t<vid_t>& fresh, const stats_t& attempt) {
    stats_t stats = compute_into(graph, options, exec, fresh);
    stats.searches = attempt.searches;
    stats.search_size = attempt.search_size;
    return stats;
  };
  const engine_t engine = options.kind == kind_t::weak ? engine_t{"operators", "two_sided_search"}
                                                       : engine_t{"operators", "restricted_tarjan"};
  // Searches visit vertices as well as edges, and a graph of isolated vertices has no edges.
  const auto scale =
      static_cast<int64_t>(graph.num_edges()) + static_cast<int64_t>(graph.num_vertices());
  host_steps_t<state_t<vid_t>, stats_t, decltype(repair), decltype(recompute)> steps(
      state, repair, recompute, scale, k_default_repair_budget, engine);
  return run_update(steps, log, static_cast<int64_t>(graph.num_vertices()), options.repair_budget,
                    fn);
}

DYNG_INSTANTIATE_ENTRY_POINTS(host, whole)

}  // namespace dyng::components
