// Host entry points of dynamic MOSP (sequential and OpenMP backends): the per-objective trees are
// sssp's, searched and repaired by sssp itself; the combined graph is a dyng graph that receives
// the in-edge changes of the vertices whose parent tuple moved, and sssp's update repairs the
// MOSP tree on it; the path costs are repaired below the vertices whose MOSP path changed.
#include "dyng/mosp/mosp.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "dyng/backend/profile.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/entry_points.hpp"
#include "dyng/graph/apply_undo.hpp"
#include "dyng/mosp/detail/combined_edges.hpp"
#include "dyng/mosp/detail/path_costs.hpp"
#include "dyng/sssp/detail/host_entry.hpp"
#include "dyng/sssp/detail/sssp_checks.hpp"

namespace dyng::mosp {
namespace {

/// The sssp options of objective i (and, with objective 0 and delta 0, of the MOSP tree).
sssp::options_t objective_options(const options_t& options, int objective) {
  sssp::options_t o;
  o.delta = options.delta;
  o.objective = objective;
  o.validate_inputs = options.validate_inputs;
  o.parallel_min_edges = options.parallel_min_edges;
  o.repair_budget = options.repair_budget;
  return o;
}

sssp::options_t combined_options(const options_t& options) {
  sssp::options_t o = objective_options(options, 0);
  o.delta = 0;                // the combined weights have a scale of their own
  o.validate_inputs = false;  // built here, >= L >= 1 by construction
  return o;
}

template <class vid_t, class eid_t>
void check_graph(const graph_t<vid_t, eid_t>& graph, const char* fn) {
  sssp::detail::check_graph(graph, fn, "mosp",
                            "one weight column per objective (weights of shape (m, K))");
}

/// The checks of compute and from_trees; fills the state's objective count and scale. The
/// weights are checked here only when `check_weights`: compute's searches check each column as
/// they read it (sssp's run_compute), so a second scan would only repeat that.
template <class vid_t, class eid_t>
void prepare(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options,
             const char* fn, bool check_weights, state_t<vid_t>& state) {
  check_graph(graph, fn);
  const int k = check_options(options, graph.num_weights(), fn);
  sssp::detail::check_source(source, graph.num_vertices(), fn);
  if (check_weights && options.validate_inputs) {
    sssp::detail::check_weight_columns(graph.out_view(), k, fn);
  }
  state.source = source;
  state.num_objectives = k;
  state.preference_scale = detail::preference_scale_of(options.preferences);
  state.tree_weights = detail::tree_weights_of(options.preferences, k, state.preference_scale);
  state.consistent = true;
}

template <class vid_t, class eid_t>
detail::cost_rows_t<vid_t, eid_t> cost_rows(const graph_t<vid_t, eid_t>& graph, int k) {
  const graph_properties_t& props = graph.properties();
  detail::cost_rows_t<vid_t, eid_t> rows{graph.out_view(), props.order == edge_order_t::sorted, k,
                                         std::nullopt};
  // An undirected graph is its own transpose (in_view() returns its rows).
  if (rows.sorted && !props.allow_parallel_edges && (graph.has_transposed() || !props.directed)) {
    rows.unique_in = graph.in_view();
  }
  return rows;
}

/// The team for a full pass over the vertices (the combined graph's build, the path costs): sized
/// by the vertices.
template <class vid_t, class eid_t>
int cost_threads(const execution_t& exec, const graph_t<vid_t, eid_t>& graph,
                 const options_t& options) {
  return host_team_size(exec, graph.num_vertices(),
                        options.parallel_min_edges < 0 ? sssp::k_default_parallel_min_edges
                                                       : options.parallel_min_edges);
}

template <class vid_t>
std::vector<const vid_t*> tree_parents(const state_t<vid_t>& state) {
  std::vector<const vid_t*> parents;
  for (const auto& tree : state.trees) parents.push_back(tree.parents.data());
  return parents;
}

/// Raises OpenMP's limit of active nested levels to two while it lives (and puts the old limit
/// back), so that a team inside a team gets threads of its own instead of running alone.
class nested_teams_t {
 public:
  explicit nested_teams_t(bool wanted) {
#if defined(_OPENMP)
    if (wanted && omp_get_max_active_levels() < 2) {
      restore_ = omp_get_max_active_levels();
      omp_set_max_active_levels(2);
    }
#else
    (void)wanted;
#endif
  }
  ~nested_teams_t() {
#if defined(_OPENMP)
    if (restore_ >= 0) omp_set_max_active_levels(restore_);
#endif
  }
  nested_teams_t(const nested_teams_t&) = delete;
  nested_teams_t& operator=(const nested_teams_t&) = delete;

 private:
  int restore_ = -1;
};

/// How the objectives of one call share its team: each objective's execution, and which run
/// side by side. While at least a team's worth of objectives is left they go in rounds of one
/// per thread (the sequential kernel); the rest then share the whole team, team / count threads
/// each and the first team % count one more, so that no thread idles through a last round (on 2
/// threads and 3 objectives, the third tree gets both threads instead of one). K searches share a
/// machine better than one search uses it all: delta-stepping scales far from linearly, and an
/// update's repairs are sequential.
struct objective_plan_t {
  int team = 1;
  bool side_by_side = false;        ///< Otherwise the objectives run one after another.
  int in_rounds = 0;                ///< Objectives [0, in_rounds) run one per thread.
  std::vector<execution_t> shares;  ///< Per objective.
};

inline objective_plan_t plan_objectives(const execution_t& exec, int k, int64_t work,
                                        int64_t min_work) {
  objective_plan_t plan;
  plan.team =
      host_team_size(exec, work, min_work < 0 ? sssp::k_default_parallel_min_edges : min_work);
  plan.shares.assign(static_cast<size_t>(k), exec);
  if (plan.team < 2 || k < 2) return plan;
  plan.side_by_side = true;
  plan.in_rounds = plan.team <= k ? k - k % plan.team : 0;
  auto deal = [&](int first, int count) {
    for (int j = 0; j < count; ++j) {
      execution_t& e = plan.shares[static_cast<size_t>(first + j)];
      const int threads =
          plan.team <= count ? 1 : plan.team / count + (j < plan.team % count ? 1 : 0);
      if (threads < 2) {
        e.backend = backend_t::sequential;
      } else {
        e.num_threads = threads;
      }
    }
  };
  deal(0, plan.in_rounds);
  deal(plan.in_rounds, k - plan.in_rounds);
  return plan;
}

/// Runs f(i, exec_i, worker) for the objectives first .. first + count - 1 side by side, `worker`
/// < count numbering the thread that runs one (for per-thread scratch); an objective with a team
/// of its own opens it nested. The first exception (by objective) is rethrown once all have
/// stopped.
template <class F>
void run_side_by_side(const objective_plan_t& plan, int first, int count, F& f) {
  if (count == 1) {
    f(first, plan.shares[static_cast<size_t>(first)], 0);
    return;
  }
  const nested_teams_t nested(plan.team > count);
  std::vector<std::exception_ptr> failures(static_cast<size_t>(count));
#pragma omp parallel for num_threads(std::min(plan.team, count)) schedule(dynamic, 1)
  for (int j = 0; j < count; ++j) {
    try {
      int worker = 0;
#if defined(_OPENMP)
      worker = omp_get_thread_num();
#endif
      f(first + j, plan.shares[static_cast<size_t>(first + j)], worker);
    } catch (...) {
      failures[j] = std::current_exception();
    }
  }
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

/// Runs f(i, exec_i, worker) for every objective i as `plan` says (worker < k).
template <class F>
void for_each_objective(const objective_plan_t& plan, F&& f) {
  const int k = static_cast<int>(plan.shares.size());
  if (!plan.side_by_side) {
    for (int i = 0; i < k; ++i) f(i, plan.shares[static_cast<size_t>(i)], 0);
    return;
  }
  if (plan.in_rounds > 0) run_side_by_side(plan, 0, plan.in_rounds, f);
  if (plan.in_rounds < k) run_side_by_side(plan, plan.in_rounds, k - plan.in_rounds, f);
}

/// The team of one mosp call, decided once at entry. host_team_size() counts the machine's
/// runnable threads, and right after a parallel part this call's own OpenMP workers are still
/// spinning and count as busy: checked before every part, the later trees went to the
/// sequential kernel on many cores. The parts then take the decided team as it is
/// (parallel_min_edges = 0), or run sequentially with num_threads = 1 (still reported as the
/// OpenMP backend, as 0.2 does).
struct team_decision_t {
  execution_t exec;
  options_t options;
};

template <class vid_t, class eid_t>
team_decision_t decide_team(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                            const execution_t& exec) {
  team_decision_t d{exec, options};
  if (exec.backend != backend_t::openmp) return d;
  const int64_t min_work = options.parallel_min_edges < 0 ? sssp::k_default_parallel_min_edges
                                                          : options.parallel_min_edges;
  const int team = host_team_size(exec, static_cast<int64_t>(graph.num_edges()), min_work);
  d.exec.num_threads = team;
  if (team >= 2) d.options.parallel_min_edges = 0;
  return d;
}

void add_counters(stats_t& stats, const sssp::stats_t& part) {
  stats.iterations += part.iterations;
  stats.frontier_visits += part.frontier_visits;
  stats.converged = stats.converged && part.converged;
}

/// The combined graph, MOSP tree and path costs of the state's trees, from scratch.
template <class vid_t, class eid_t>
void combine(const graph_t<vid_t, eid_t>& graph, const options_t& options, const execution_t& exec,
             state_t<vid_t>& state, stats_t& stats) {
  const int64_t n = graph.num_vertices();
  const int team = cost_threads(exec, graph, options);
  {
    stage_scope_t combine_stage("mosp.combine");
    state.combined_graph = detail::combined_store_t<vid_t>(detail::build_combined_csrs(
        tree_parents(state), n, state.tree_weights, state.preference_scale, team));
  }
  // The passes between the searches read every vertex once; a stop is honoured between them.
  throw_if_cancelled(exec, "mosp.combine");
  std::optional<stage_scope_t> combined_stage(std::in_place, "mosp.combined_sssp");
  sssp::state_t<vid_t> combined;
  // Through sssp's kernel entry with a packed scratch: the combined graph's search then reads one
  // (neighbour, weight) array instead of two (the graph is small next to the input, so the copy
  // costs less than the second array's misses). Its options are mosp's own and its source is
  // the checked one, so compute()'s checks would only repeat themselves.
  sssp::detail::packed_rows_t<vid_t, int64_t> packed;
  const sssp::stats_t c = sssp::detail::run_compute(
      sssp::detail::graph_views_t<vid_t, int64_t>{state.combined_graph.out_view(),
                                                  state.combined_graph.in_view(),
                                                  state.combined_graph.num_edges(), true},
      state.source, combined_options(options), exec, combined, "mosp.compute()", nullptr, nullptr,
      {&packed, nullptr});
  state.combined_distances = std::move(combined.distances);
  state.combined_parents = std::move(combined.parents);
  combined_stage.reset();
  add_counters(stats, c);
  stats.affected = c.affected;
  stats.engine_used = c.engine_used;
  stats.method = c.method;
  state.has_path_costs = options.compute_path_costs;
  state.path_costs.clear();
  if (state.has_path_costs) {
    throw_if_cancelled(exec, "mosp.combine");
    stage_scope_t costs_stage("mosp.path_costs");
    detail::compute_path_costs(cost_rows(graph, state.num_objectives),
                               state.combined_parents.data(), state.source, state.path_costs, team,
                               state.combined_distances.data(), state.preference_scale);
  }
  stats.combined_edges = state.combined_graph.num_edges();
  stats.preference_scale = state.preference_scale;
}

/// Marks a state whose update failed part-way unusable (state_t::consistent) and rethrows.
template <class vid_t, class F>
auto all_or_poisoned(state_t<vid_t>& state, F&& f) {
  try {
    return f();
  } catch (...) {
    state.consistent = false;
    throw;
  }
}

/// After the costs were propagated from the source, the vertices left unreached that have a
/// parent show what is wrong with `parents` as a tree of the graph (testing.mosp_path_costs): a
/// reached parent without the edge to its child, or a cycle; a chain that ends at an unreachable
/// vertex is fine (its costs stay infinite, as in 0.2).
template <class vid_t, class eid_t>
void check_tree_shape(const adjacency_view_t<vid_t, eid_t>& out, const std::vector<vid_t>& parents,
                      vid_t source, const std::vector<int64_t>& costs, int k, const char* fn) {
  const int64_t n = out.num_vertices;
  auto reached = [&](int64_t v) {
    return v == source || costs[static_cast<size_t>(v * k)] != sssp::k_infinite_distance;
  };
  std::vector<int64_t> walk_of(static_cast<size_t>(n), -1);  // the walk that visited v
  for (int64_t start = 0; start < n; ++start) {
    for (int64_t v = start; v != source && parents[v] >= 0 && !reached(v); v = parents[v]) {
      if (walk_of[v] == start) {
        throw invalid_argument_error(std::string(fn) +
                                     ": the parents form a cycle through vertex " +
                                     std::to_string(v) + "; pass a tree rooted at the source");
      }
      if (walk_of[v] >= 0) break;  // an earlier walk went on from here
      walk_of[v] = start;
      if (reached(parents[v])) {
        throw invalid_argument_error(std::string(fn) + ": parents[" + std::to_string(v) + "] = " +
                                     std::to_string(parents[v]) + " but the graph has no edge (" +
                                     std::to_string(parents[v]) + ", " + std::to_string(v) +
                                     "); pass parents whose tree edges are graph edges");
      }
    }
  }
}

/// Searches the trees `which` (ascending objective numbers) of `state` from scratch, from
/// state.source, into state.trees and `stats` (one entry per objective). Compute searches every
/// objective; an update those whose repair passed its budget (`recount`: each search counts what
/// differs from the tree it replaces, as sssp's own fallback does, and keeps the stats that
/// update_views() left). The searches share the call's team as plan_objectives() says, and when
/// two or more run the sequential kernel, every objective's rows are packed once, together
/// (search_rows.hpp), and a tree with a team of its own reads them too (reading the graph's
/// rows instead made the team slower than one thread: bench/README.md, "Figures behind design
/// choices"); otherwise, or when a weight does not fit the shared word, each thread packs
/// its objective into its own copy, reused by its next search (a fresh copy costs its page
/// faults, 8 bytes an edge, every time). `fn` words a bad weight. With `replaced`, a recounted
/// tree's old distances go to (*replaced)[objective].
template <class vid_t, class eid_t>
void search_objectives(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                       const execution_t& exec, const std::vector<int>& which, const char* fn,
                       bool recount, state_t<vid_t>& state, std::vector<sssp::stats_t>& stats,
                       std::vector<std::vector<int64_t>>* replaced = nullptr) {
  const int count = static_cast<int>(which.size());
  if (count == 0) return;
  const auto views = sssp::detail::views_of(graph);
  const objective_plan_t plan =
      plan_objectives(exec, count, graph.num_edges(), options.parallel_min_edges);
  int sequential_searches = 0;
  for (int j = 0; j < count; ++j) {
    const int threads = sssp::detail::kernel_threads(
        views, objective_options(options, which[static_cast<size_t>(j)]),
        plan.shares[static_cast<size_t>(j)]);
    sequential_searches += threads < 2 ? 1 : 0;
  }
  const int k = state.num_objectives;
  sssp::detail::packed_objectives_t<vid_t, eid_t> shared;
  if (sequential_searches >= 2 && k <= sssp::detail::k_max_packed_objectives) {
    const stage_scope_t pack_stage("mosp.pack_objectives");
    sssp::detail::pack_objectives(views.out, k, std::max(1, plan.team), shared);
  }
  std::vector<sssp::detail::packed_rows_t<vid_t, eid_t>> packed(
      shared.usable ? 0 : static_cast<size_t>(count));
  const profile_fork_t fork = profile_fork();
  for_each_objective(plan, [&](int j, const execution_t& e, int worker) {
    const profile_context_t profiling(fork);
    const stage_scope_t objective_stage("mosp.objective");
    const int i = which[static_cast<size_t>(j)];
    sssp::detail::row_scratch_t<vid_t, eid_t> scratch;
    if (shared.usable) {
      scratch.objectives = &shared;
    } else {
      scratch.packed = &packed[static_cast<size_t>(worker)];
    }
    const sssp::options_t o = objective_options(options, i);
    if (recount) {
      sssp::detail::recompute_counting(views, o, e, state.trees[i], stats[i], scratch,
                                       replaced != nullptr ? &(*replaced)[i] : nullptr);
    } else {
      stats[i] = sssp::detail::run_compute(views, state.source, o, e, state.trees[i], fn, nullptr,
                                           nullptr, scratch);
    }
  });
}

/// What an update changes before its last part, kept so that a failed or interrupted update puts
/// the state back as it was (a stop is honoured anywhere before the path costs). No array is
/// copied for it: a repaired tree goes back by its repair's own undo (sssp's steps, kept), a
/// recomputed one from the distances its recompute replaced and the parents the update keeps
/// anyway, the combined graph by its undo records, and the combined tree's update undoes itself.
template <class vid_t, class eid_t>
class update_rollback_t {
 public:
  using steps_t = sssp::detail::host_update_steps_t<vid_t, eid_t>;

  update_rollback_t(state_t<vid_t>& state, int k, int64_t n_before)
      : steps(static_cast<size_t>(k)),
        old_parents(static_cast<size_t>(k)),
        replaced(static_cast<size_t>(k)),
        state_(state),
        n_before_(n_before) {}

  /// Puts the trees and the combined graph back as they were before the update.
  void put_back() noexcept {
    if (combined_ != nullptr) {
      if (combined_apply.recorded) combined_->revert(combined_apply);
      if (combined_growth.recorded) combined_->revert(combined_growth);
    }
    for (size_t i = 0; i < steps.size(); ++i) {
      sssp::state_t<vid_t>& tree = state_.trees[i];
      if (!replaced[i].empty()) {  // recomputed: the whole tree was replaced
        tree.distances = std::move(replaced[i]);
        tree.parents = std::move(old_parents[i]);
      } else if (steps[i]) {
        steps[i]->undo();
      }
      if (steps[i]) steps[i]->shrink(n_before_);
    }
  }

  /// The combined graph the update edits (its growth and apply record here).
  void edits(combined_graph_t<vid_t>& combined) { combined_ = &combined; }

  std::vector<std::unique_ptr<steps_t>> steps;  ///< Per objective, once its repair ran.
  std::vector<std::vector<vid_t>> old_parents;  ///< Per objective, before the update.
  std::vector<std::vector<int64_t>> replaced;   ///< Per recomputed objective: old distances.
  apply_undo_t<vid_t, int64_t> combined_growth;
  apply_undo_t<vid_t, int64_t> combined_apply;

 private:
  state_t<vid_t>& state_;
  int64_t n_before_;
  combined_graph_t<vid_t>* combined_ = nullptr;
};

}  // namespace

int check_options(const options_t& options, int graph_weights, const char* fn) {
  const std::string f = fn;
  if (options.num_objectives < 0 || options.num_objectives > graph_weights) {
    throw invalid_argument_error(f + ": num_objectives " + std::to_string(options.num_objectives) +
                                 " is out of range [0, " + std::to_string(graph_weights) +
                                 "] (the graph has " + std::to_string(graph_weights) +
                                 " weight columns; 0 uses them all)");
  }
  const int k = options.num_objectives == 0 ? graph_weights : options.num_objectives;
  if (k > k_max_objectives) {
    throw invalid_argument_error(
        f + ": " + std::to_string(k) + " objectives exceed the " +
        std::to_string(k_max_objectives) +
        " mosp supports; pass num_objectives <= " + std::to_string(k_max_objectives));
  }
  const auto& prefs = options.preferences;
  if (!prefs.empty() && static_cast<int>(prefs.size()) != k) {
    throw invalid_argument_error(f + ": preferences has " + std::to_string(prefs.size()) +
                                 " values for " + std::to_string(k) +
                                 " objectives; pass one per objective, or none for all 1");
  }
  for (size_t i = 0; i < prefs.size(); ++i) {
    if (prefs[i] < 1 || prefs[i] > int64_t{2147483647}) {
      throw invalid_argument_error(f + ": preferences[" + std::to_string(i) +
                                   "] = " + std::to_string(prefs[i]) +
                                   " is out of range; preferences must be in [1, 2^31-1]");
    }
  }
  if (detail::preference_scale_of(prefs) < 0) {
    throw invalid_argument_error(
        f + ": lcm(preferences) exceeds 2^20 = " + std::to_string(k_max_preference_scale) +
        " (the combined weights are scaled by it); pass preferences "
        "with a smaller least common multiple");
  }
  if (options.delta < 0) {
    throw invalid_argument_error(f + ": delta " + std::to_string(options.delta) +
                                 " is negative; pass 0 to choose it from the weights or a "
                                 "positive bucket width");
  }
  return k;
}

void check_insertion_weights(const weight_fault_t* first_below_one, int num_weights,
                             const options_t& options) {
  if (num_weights == 0) return;  // the graph's apply() decides about a batch without weights
  const int objectives =
      options.num_objectives == 0 ? num_weights : std::min(options.num_objectives, num_weights);
  for (int i = 0; i < objectives; ++i) {
    sssp::check_insertion_weights(first_below_one, num_weights, objective_options(options, i),
                                  "mosp.update()");
  }
}

template <class vid_t>
void validate_batch(const edge_batch_t<vid_t>& batch, const options_t& options) {
  const int k = batch.num_weights;
  if (k == 0) return;  // the graph's apply() decides about a batch without weights
  const int objectives = options.num_objectives == 0 ? k : std::min(options.num_objectives, k);
  for (int i = 0; i < objectives; ++i) {
    sssp::validate_batch(batch, objective_options(options, i), "mosp.update()");
  }
}

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, vid_t source, const options_t& options_in,
                const execution_t& exec_in, state_t<vid_t>& state) {
  constexpr const char* fn = "mosp.compute()";
  check_host_backend(exec_in, fn);
  const team_decision_t decided = decide_team(graph, options_in, exec_in);
  const execution_t& exec = decided.exec;
  const options_t& options = decided.options;
  prepare(graph, source, options, fn, false, state);
  stats_t stats;
  const int k = state.num_objectives;
  state.trees.assign(static_cast<size_t>(k), {});
  stats.objectives.resize(static_cast<size_t>(k));
  // The first bad weight, by objective, is reported as prepare() would with validate_inputs, and
  // as sssp.compute() words it without: the messages are those of the separate scans.
  std::vector<int> all(static_cast<size_t>(k));
  for (int i = 0; i < k; ++i) all[static_cast<size_t>(i)] = i;
  search_objectives(graph, options, exec, all, options.validate_inputs ? fn : "sssp.compute()",
                    false, state, stats.objectives);
  for (const auto& part : stats.objectives) add_counters(stats, part);
  combine(graph, options, exec, state, stats);
  // The search ran on the compact CSRs; the rows updates edit are laid out now, so that the
  // first update costs what the later ones do (combined_store.hpp).
  state.combined_graph.graph(cost_threads(exec, graph, options));
  stats.path = update_path_t::compute;
  return stats;
}

template <class vid_t, class eid_t>
state_t<vid_t> from_trees(const graph_t<vid_t, eid_t>& graph, vid_t source,
                          std::vector<sssp::state_t<vid_t>> trees, bool canonicalize,
                          const options_t& options_in, const execution_t& exec_in) {
  constexpr const char* fn = "mosp.Result.from_arrays()";
  check_host_backend(exec_in, fn);
  const team_decision_t decided = decide_team(graph, options_in, exec_in);
  const execution_t& exec = decided.exec;
  const options_t& options = decided.options;
  state_t<vid_t> state;
  prepare(graph, source, options, fn, true, state);
  if (static_cast<int>(trees.size()) != state.num_objectives) {
    throw invalid_argument_error(std::string(fn) + ": got " + std::to_string(trees.size()) +
                                 " distance and parent arrays for " +
                                 std::to_string(state.num_objectives) +
                                 " objectives; pass one of each per objective");
  }
  for (int i = 0; i < state.num_objectives; ++i) {
    trees[i].source = source;
    const sssp::options_t o = objective_options(options, i);
    if (canonicalize) sssp::canonicalize_parents(graph, o, exec, trees[i]);
    if (options.validate_inputs) sssp::check_result(graph, o, trees[i], canonicalize, fn);
  }
  state.trees = std::move(trees);
  stats_t unused;
  combine(graph, options, exec, state, unused);
  return state;
}

namespace {

/// Throws unless `state` can take an update with `options`; returns the number of objectives.
template <class vid_t, class eid_t>
int check_update(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                 const state_t<vid_t>& state, const char* fn) {
  check_graph(graph, fn);
  if (!state.consistent) {
    throw invalid_argument_error(std::string(fn) +
                                 ": an earlier update of this result failed part-way, so it "
                                 "holds no consistent answer; compute it again");
  }
  const int k = check_options(options, graph.num_weights(), fn);
  if (k != state.num_objectives ||
      detail::preference_scale_of(options.preferences) != state.preference_scale) {
    throw invalid_argument_error(std::string(fn) +
                                 ": the options name other objectives or preferences than the "
                                 "result was computed with; compute a new result instead");
  }
  return k;
}

/// Update step 1, the trees: each by sssp's own update (its budget and fallback), keeping the old
/// parents (in `rollback`) to find the vertices whose parent tuple moved. The trees whose repair
/// passes its budget are recomputed afterwards, together, as compute searches them, so that the
/// graph's rows are packed once for all of them rather than once per fallback. Returns whether a
/// tree was recomputed.
template <class vid_t, class eid_t>
bool update_trees(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
                  const options_t& options, const execution_t& exec, int k, state_t<vid_t>& state,
                  update_rollback_t<vid_t, eid_t>& rollback, stats_t& stats) {
  std::vector<std::vector<vid_t>>& old_parents = rollback.old_parents;
  stats.objectives.resize(static_cast<size_t>(k));
  const auto views = sssp::detail::views_of(graph);
  const profile_fork_t fork = profile_fork();
  for_each_objective(plan_objectives(exec, k, graph.num_edges(), options.parallel_min_edges),
                     [&](int i, const execution_t& e, int) {
                       const profile_context_t profiling(fork);
                       const stage_scope_t objective_stage("mosp.objective");
                       old_parents[i] = state.trees[i].parents;
                       stats.objectives[i] =
                           sssp::detail::update_views(views, log, objective_options(options, i), e,
                                                      state.trees[i], true, &rollback.steps[i]);
                     });
  std::vector<int> fell_back;
  for (int i = 0; i < k; ++i) {
    if (stats.objectives[i].fallback_used) fell_back.push_back(i);
  }
  if (!fell_back.empty()) {
    const stage_scope_t recompute_stage("mosp.recompute_objectives");
    search_objectives(graph, options, exec, fell_back, "sssp.update()", true, state,
                      stats.objectives, &rollback.replaced);
  }
  for (const auto& part : stats.objectives) add_counters(stats, part);
  return !fell_back.empty();
}

/// The vertices (below `n_after`) whose parent tuple moved in step 1, ascending. Each of `shares`
/// shares of the vertices is filtered on the team, since the pass reads n * K parents and is a
/// visible part of an update on many cores when one thread does it; the shares' finds are then
/// joined in order, and nothing n-sized is allocated.
template <class vid_t>
std::vector<vid_t> moved_tuples(const state_t<vid_t>& state,
                                const std::vector<std::vector<vid_t>>& old_parents, int k,
                                int64_t n_before, int64_t n_after, int shares) {
  auto tuple_moved = [&](int64_t v) {
    for (int i = 0; i < k; ++i) {
      const vid_t old = v < n_before ? old_parents[i][v] : vid_t{-1};
      if (old != state.trees[i].parents[v]) return true;
    }
    return false;
  };
  std::vector<std::vector<vid_t>> found(static_cast<size_t>(shares));
#pragma omp parallel for num_threads(shares) schedule(static, 1) if (shares > 1)
  for (int share = 0; share < shares; ++share) {
    const int64_t lo = n_after * share / shares, hi = n_after * (share + 1) / shares;
    for (int64_t v = lo; v < hi; ++v) {
      if (tuple_moved(v)) found[static_cast<size_t>(share)].push_back(static_cast<vid_t>(v));
    }
  }
  std::vector<vid_t> moved = std::move(found[0]);
  for (size_t share = 1; share < found.size(); ++share) {
    moved.insert(moved.end(), found[share].begin(), found[share].end());
  }
  return moved;
}

/// Update step 2, the combined graph: the in-edges of the `moved` vertices are diffed against the
/// stored ones and applied as one batch (recorded in `rollback`), the vertex growth to `n_after`
/// included. The stored combined in-edges of v are those of its old parents (combined_edges.hpp),
/// so they are what the new ones are diffed against. Returns the batch's change log.
template <class vid_t, class eid_t>
change_log_t<vid_t> edit_combined_graph(combined_graph_t<vid_t>& cg, const state_t<vid_t>& state,
                                        const std::vector<vid_t>& moved, int k, int64_t n_before,
                                        int64_t n_after, const execution_t& exec,
                                        update_rollback_t<vid_t, eid_t>& rollback) {
  std::vector<vid_t> ins_src, ins_dst, del_src, del_dst;
  std::vector<int32_t> ins_w;
  rollback.edits(cg);
  const auto cin = cg.in_view();
  std::vector<detail::combined_in_edge_t<vid_t>> before, after;
  for (const vid_t v : moved) {
    before.clear();
    if (v < cg.num_vertices()) {
      for (auto j = cin.begin(v); j < cin.end(v); ++j) {
        before.push_back({cin.neighbour(j), cin.weight(j, 0)});
      }
    }
    detail::combined_in_edges<vid_t>([&](int i) { return state.trees[i].parents[v]; }, k,
                                     state.tree_weights, state.preference_scale, after);
    for (const auto& e : before) {
      if (std::none_of(after.begin(), after.end(),
                       [&](const auto& a) { return a.from == e.from; })) {
        del_src.push_back(e.from);
        del_dst.push_back(v);
      }
    }
    for (const auto& e : after) {
      if (std::find(before.begin(), before.end(), e) != before.end()) continue;
      ins_src.push_back(e.from);
      ins_dst.push_back(v);
      ins_w.push_back(e.weight);
    }
  }
  cg.grow_vertices(static_cast<vid_t>(n_after), &rollback.combined_growth);
  change_log_t<vid_t> clog;
  cg.apply(edge_batch_t<vid_t>{ins_src, ins_dst, ins_w, 1, del_src, del_dst}, &clog, exec,
           &rollback.combined_apply);
  clog.num_vertices_before = static_cast<vid_t>(n_before);  // the growth above is part of it
  return clog;
}

/// Update step 3, the MOSP tree: sssp's update on the combined graph (which puts the tree back if
/// it fails), on the state's combined arrays, swapped in and out without copies.
template <class vid_t>
sssp::stats_t update_combined_tree(const combined_graph_t<vid_t>& cg,
                                   const change_log_t<vid_t>& clog, const options_t& options,
                                   const execution_t& exec, state_t<vid_t>& state) {
  sssp::state_t<vid_t> combined;
  combined.source = state.source;
  combined.distances.swap(state.combined_distances);
  combined.parents.swap(state.combined_parents);
  sssp::stats_t c;
  try {
    c = sssp::update(cg, clog, combined_options(options), exec, combined);
  } catch (...) {
    combined.distances.swap(state.combined_distances);
    combined.parents.swap(state.combined_parents);
    throw;
  }
  combined.distances.swap(state.combined_distances);
  combined.parents.swap(state.combined_parents);
  return c;
}

/// Update step 4, the path costs: below the vertices whose MOSP parent moved or whose parent edge
/// changed (all of them again after a recompute). Returns the frontier visits of the repair.
template <class vid_t, class eid_t>
int64_t update_path_costs(const graph_t<vid_t, eid_t>& graph, const combined_graph_t<vid_t>& cg,
                          const change_log_t<vid_t>& log, const options_t& options,
                          const execution_t& exec, int k, bool recomputed,
                          const std::vector<vid_t>& old_combined_parents, int64_t n_before,
                          int64_t n_after, state_t<vid_t>& state) {
  if (!options.compute_path_costs) {
    state.path_costs.clear();
    state.has_path_costs = false;
    return 0;
  }
  if (!state.has_path_costs || recomputed) {
    detail::compute_path_costs(cost_rows(graph, k), state.combined_parents.data(), state.source,
                               state.path_costs, cost_threads(exec, graph, options),
                               state.combined_distances.data(), state.preference_scale);
    state.has_path_costs = true;
    return 0;
  }
  state.path_costs.resize(static_cast<size_t>(n_after * k), sssp::k_infinite_distance);
  std::vector<vid_t> roots;
  for (int64_t v = 0; v < n_after; ++v) {
    const vid_t old = v < n_before ? old_combined_parents[v] : vid_t{-1};
    if (old != state.combined_parents[v]) roots.push_back(static_cast<vid_t>(v));
  }
  for (const auto& change : log.changes) {
    if (state.combined_parents[change.dst] == change.src) roots.push_back(change.dst);
  }
  return detail::repair_path_costs(cost_rows(graph, k), cg.out_view(),
                                   state.combined_parents.data(), state.combined_distances.data(),
                                   state.source, roots, state.path_costs);
}

}  // namespace

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options_in, const execution_t& exec_in, state_t<vid_t>& state) {
  constexpr const char* fn = "mosp.update()";
  check_host_backend(exec_in, fn);
  const team_decision_t decided = decide_team(graph, options_in, exec_in);
  const execution_t& exec = decided.exec;
  const options_t& options = decided.options;
  const int k = check_update(graph, options, state, fn);
  const int64_t n_before = static_cast<int64_t>(log.num_vertices_before);
  const int64_t n_after = static_cast<int64_t>(log.num_vertices_after);
  stage_scope_t update_stage("mosp.repair");
  // Steps 1-3 can be stopped (Ctrl-C) or fail anywhere: the rollback then puts everything back.
  update_rollback_t<vid_t, eid_t> rollback(state, k, n_before);
  stats_t stats;
  bool recomputed = false;
  std::vector<vid_t> old_combined_parents;
  combined_graph_t<vid_t>* combined_graph = nullptr;
  try {
    recomputed = update_trees(graph, log, options, exec, k, state, rollback, stats);
    std::optional<stage_scope_t> moved_stage(std::in_place, "mosp.moved_tuples");
    const std::vector<vid_t> moved = moved_tuples(state, rollback.old_parents, k, n_before, n_after,
                                                  std::max(1, cost_threads(exec, graph, options)));
    moved_stage.emplace("mosp.combine");
    throw_if_cancelled(exec, fn);  // between the searches and the combined graph's edits
    combined_graph = &state.combined_graph.graph(cost_threads(exec, graph, options));
    const change_log_t<vid_t> clog =
        edit_combined_graph(*combined_graph, state, moved, k, n_before, n_after, exec, rollback);
    moved_stage.emplace("mosp.combined_sssp");
    old_combined_parents = state.combined_parents;
    const sssp::stats_t c = update_combined_tree(*combined_graph, clog, options, exec, state);
    moved_stage.reset();
    add_counters(stats, c);
    recomputed = recomputed || c.fallback_used;
    stats.affected = c.affected;
    stats.engine_used = c.engine_used;
    stats.method = c.method;
  } catch (...) {
    rollback.put_back();
    throw;
  }
  // Step 4 is not stopped: taking steps 1-3 back from here would need copies of the combined
  // tree and the costs; the pass reads each vertex's costs once. Only running out of memory fails
  // it, and the state is then marked inconsistent.
  const combined_graph_t<vid_t>& cg = *combined_graph;
  return all_or_poisoned(state, [&] {
    const stage_scope_t costs_stage("mosp.path_costs");
    stats.frontier_visits += update_path_costs(graph, cg, log, options, exec, k, recomputed,
                                               old_combined_parents, n_before, n_after, state);
    stats.combined_edges = static_cast<int64_t>(cg.num_edges());
    stats.preference_scale = state.preference_scale;
    stats.path = recomputed ? update_path_t::recompute : update_path_t::incremental;
    stats.fallback_used = recomputed;
    return stats;
  });
}

template <class vid_t>
csr_t<vid_t, int64_t> combined_graph_of(const std::vector<std::vector<vid_t>>& parents,
                                        vid_t source, const std::vector<int64_t>& preferences) {
  constexpr const char* fn = "testing.combined_graph()";
  const int k = static_cast<int>(parents.size());
  if (k == 0 || k > k_max_objectives) {
    throw invalid_argument_error(std::string(fn) + ": got " + std::to_string(k) +
                                 " parent arrays; pass between 1 and " +
                                 std::to_string(k_max_objectives));
  }
  options_t options;
  options.preferences = preferences;
  check_options(options, k, fn);
  const int64_t n = static_cast<int64_t>(parents[0].size());
  std::vector<const vid_t*> views;
  for (const auto& p : parents) {
    if (static_cast<int64_t>(p.size()) != n) {
      throw invalid_argument_error(std::string(fn) +
                                   ": the parent arrays differ in length; pass one entry per "
                                   "vertex in each");
    }
    for (int64_t v = 0; v < n; ++v) {
      if (p[v] < -1 || p[v] >= n) {
        throw invalid_argument_error(std::string(fn) + ": parent " + std::to_string(p[v]) +
                                     " of vertex " + std::to_string(v) +
                                     " is not a vertex; parents must be -1 or in [0, n)");
      }
    }
    views.push_back(p.data());
  }
  sssp::detail::check_source(source, static_cast<vid_t>(n), fn);
  const int64_t scale = detail::preference_scale_of(preferences);
  return detail::build_combined_csrs(views, n, detail::tree_weights_of(preferences, k, scale),
                                     scale)
      .out;
}

template <class vid_t, class eid_t>
std::vector<int64_t> path_costs_of(const graph_t<vid_t, eid_t>& graph,
                                   const std::vector<vid_t>& parents, vid_t source,
                                   int num_objectives) {
  constexpr const char* fn = "testing.mosp_path_costs()";
  options_t options;
  options.num_objectives = num_objectives;
  check_graph(graph, fn);
  const int k = check_options(options, graph.num_weights(), fn);
  const int64_t n = graph.num_vertices();
  sssp::detail::check_source(source, graph.num_vertices(), fn);
  if (static_cast<int64_t>(parents.size()) != n) {
    throw invalid_argument_error(std::string(fn) + ": parents has " +
                                 std::to_string(parents.size()) + " entries but the graph has " +
                                 std::to_string(n) + " vertices; pass one per vertex");
  }
  for (int64_t v = 0; v < n; ++v) {
    if (parents[v] < -1 || parents[v] >= n) {
      throw invalid_argument_error(std::string(fn) + ": parents[" + std::to_string(v) +
                                   "] = " + std::to_string(parents[v]) +
                                   " is not a vertex; parents must be -1 or in [0, n)");
    }
  }
  std::vector<int64_t> costs;
  detail::compute_path_costs(cost_rows(graph, k), parents.data(), source, costs);
  check_tree_shape(graph.out_view(), parents, source, costs, k, fn);
  return costs;
}

DYNG_INSTANTIATE_ENTRY_POINTS(host, sourced)
#define DYNG_INSTANTIATE_MOSP_CPU(VID, EID)                                                        \
  template state_t<VID> from_trees(const graph_t<VID, EID>&, VID, std::vector<sssp::state_t<VID>>, \
                                   bool, const options_t&, const execution_t&);                    \
  template std::vector<int64_t> path_costs_of(const graph_t<VID, EID>&, const std::vector<VID>&,   \
                                              VID, int);
#define DYNG_INSTANTIATE_MOSP_VERTEX(VID)                                                   \
  template void validate_batch(const edge_batch_t<VID>&, const options_t&);                 \
  template csr_t<VID, int64_t> combined_graph_of(const std::vector<std::vector<VID>>&, VID, \
                                                 const std::vector<int64_t>&);

DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_MOSP_CPU)
DYNG_FOR_EACH_VERTEX_TYPE(DYNG_INSTANTIATE_MOSP_VERTEX)
#undef DYNG_INSTANTIATE_MOSP_CPU
#undef DYNG_INSTANTIATE_MOSP_VERTEX

}  // namespace dyng::mosp
