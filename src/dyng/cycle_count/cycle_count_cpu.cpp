// Host entry points of cycle_count (sequential and OpenMP backends): compute counts every cycle
// from its root, update counts the cycles through the batch's changed edges on the graph before
// and after it (cycle_count.hpp), both with the path counter of detail/cycle_paths.hpp; update
// runs under the shared dynamic-update policy. Both poll the caller's stop flag
// (backend/cancel.hpp) between work items (a root, a root's first edge, a changed edge) and throw
// interrupted_error; the searches poll inside too (detail/), since one root's cycles can be all of
// a dense graph's.
#include "dyng/cycle_count/cycle_count.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#if defined(DYNG_HAVE_OPENMP)
#include <omp.h>
#endif

#include "dyng/backend/profile.hpp"
#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/cycle_count/detail/cycle_graph.hpp"
#include "dyng/cycle_count/detail/cycle_paths.hpp"
#include "dyng/cycle_count/detail/histogram.hpp"
#include "dyng/cycle_count/detail/johnson.hpp"
#include "dyng/cycle_count/detail/update_steps.hpp"

namespace dyng::cycle_count {
namespace {

using detail::edge_pair_t;

constexpr int64_t k_no_limit = std::numeric_limits<int64_t>::max();

/// The stored transpose, or a built one for a directed graph stored without in-edges.
template <class vid_t, class eid_t>
struct in_rows_t {
  adjacency_view_t<vid_t, eid_t> view;
  std::vector<eid_t> begin, end;
  std::vector<vid_t> col;

  explicit in_rows_t(const graph_t<vid_t, eid_t>& graph) {
    const bool stored = !graph.properties().directed || graph.properties().store_transposed;
    if (stored) {
      view = in_edges_view(graph, graph.properties().directed);
      return;
    }
    const auto out = graph.out_view();
    const vid_t n = out.num_vertices;
    std::vector<eid_t> count(static_cast<size_t>(n) + 1, 0);
    for (vid_t u = 0; u < n; ++u) {
      for (eid_t j = out.begin(u); j < out.end(u); ++j) ++count[out.neighbour(j) + 1];
    }
    for (vid_t v = 0; v < n; ++v) count[v + 1] += count[v];
    begin.assign(count.begin(), count.end() - 1);
    end = begin;
    col.resize(static_cast<size_t>(count[n]));
    for (vid_t u = 0; u < n; ++u) {
      for (eid_t j = out.begin(u); j < out.end(u); ++j) col[end[out.neighbour(j)]++] = u;
    }
    view = {n, 0, begin.data(), end.data(), col.data(), nullptr};
  }
};

template <class vid_t, class eid_t>
using graph_view_t = detail::cycle_graph_t<vid_t, eid_t>;

template <class vid_t, class eid_t>
using counter_t = detail::path_counter_t<graph_view_t<vid_t, eid_t>>;

/// What a count throws when its caller's flag asks it to stop.
constexpr const char* k_count_stopped = "cycle_count search";

/// Runs body(i, counter, hist) for i < count on a team (or alone), each thread with its own
/// counter (a counter_type on n vertices) and histogram, and sums the histograms into `total`.
/// The first exception is rethrown once every thread has stopped; a stop that `cancel` asks for
/// ends the items and throws interrupted_error, `total` then part-filled.
template <class counter_type, class F>
void for_each_search(int threads, int64_t count, int64_t n, size_t hist_size,
                     std::vector<uint64_t>& total, cancel_token_t cancel, F&& body) {
  if (threads <= 1) {
    counter_type counter(n);
    for (int64_t i = 0; i < count; ++i) {
      throw_if_cancelled(cancel, k_count_stopped);
      body(i, counter, total);
    }
    return;
  }
  team_stop_t stop(cancel);
  std::vector<std::vector<uint64_t>> hists(static_cast<size_t>(threads),
                                           std::vector<uint64_t>(hist_size, 0));
  std::vector<std::exception_ptr> failures(static_cast<size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
#if defined(DYNG_HAVE_OPENMP)
    const int me = omp_get_thread_num();
#else
    const int me = 0;
#endif
    try {
      counter_type counter(n);
      // Small chunks: a work item can be a hub's whole search; consecutive items mostly share a
      // root, which a counter then prepares once.
#pragma omp for schedule(dynamic, 4)
      for (int64_t i = 0; i < count; ++i) {
        if (!failures[me] && !stop.poll()) {
          try {
            body(i, counter, hists[me]);
          } catch (...) {
            failures[me] = std::current_exception();
          }
        }
      }
    } catch (...) {
      failures[me] = std::current_exception();
    }
  }
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  throw_if_cancelled(stop, k_count_stopped);
  for (const auto& h : hists) detail::add_histogram(total, h);
}

template <class vid_t, class eid_t>
int team_size(const execution_t& exec, const graph_t<vid_t, eid_t>& graph,
              const options_t& options) {
  return host_team_size(exec, static_cast<int64_t>(graph.num_edges()),
                        options.parallel_min_edges < 0 ? k_default_parallel_min_edges
                                                       : options.parallel_min_edges);
}

/// Every cycle, from its root: the simple paths root -> ... -> root through larger vertices. A
/// team shares the roots out by their first edges (path_counter_t's work items): R-MAT's low ids
/// are hubs whose searches alone would outlast everything else.
template <class vid_t, class eid_t>
std::vector<uint64_t> count_all(const graph_t<vid_t, eid_t>& graph, int64_t bound, int threads,
                                cancel_token_t cancel, int64_t& work) {
  const in_rows_t<vid_t, eid_t> in(graph);
  const auto out = graph.out_view();
  const graph_view_t<vid_t, eid_t> g(out, in.view);
  const int64_t n = graph.num_vertices();
  std::vector<uint64_t> hist(static_cast<size_t>(bound) + 1, 0);
  int64_t total = 0;
  if (bound >= n) {
    // Every length counts: Johnson's blocking is exact, and output-sensitive where the bounded
    // search would walk the same dead ends again and again.
    for_each_search<detail::johnson_counter_t<graph_view_t<vid_t, eid_t>>>(
        threads, n, n, hist.size(), hist, cancel, [&](int64_t i, auto& counter, auto& into) {
          const int64_t spent = counter.count(g, static_cast<vid_t>(i), into);
#pragma omp atomic
          total += spent;
        });
    work = total;
    return hist;
  }
  if (threads <= 1) {
    counter_t<vid_t, eid_t> counter(n);
    for (vid_t root = 0; root < n; ++root) {
      throw_if_cancelled(cancel, k_count_stopped);
      counter.count(g, root, root, bound, 0, [root](vid_t w) { return w > root; },
                    [](vid_t, vid_t) { return true; }, hist, k_no_limit);
      total += counter.work();
    }
    work = total;
    return hist;
  }
  // Items of root r: one for the paths through r alone, then one per slot of its out-row.
  std::vector<int64_t> first_item(static_cast<size_t>(n) + 1, 0);
  for (vid_t r = 0; r < n; ++r) first_item[r + 1] = first_item[r] + 1 + out.degree(r);
  for_each_search<counter_t<vid_t, eid_t>>(
      threads, first_item[n], n, hist.size(), hist, cancel,
      [&](int64_t i, auto& counter, auto& into) {
        const auto at = std::upper_bound(first_item.begin(), first_item.end(), i) - 1;
        const vid_t root = static_cast<vid_t>(at - first_item.begin());
        const int64_t before = counter.work();
        counter.begin_root(g, root, bound);
        if (i == *at) {
          counter.root_item(g, into);
        } else {
          counter.child_item(g, out.neighbour(out.begin(root) + static_cast<eid_t>(i - *at - 1)),
                             into);
        }
        const int64_t spent = counter.work() - before;
#pragma omp atomic
        total += spent;
      });
  work = total;
  return hist;
}

/// The cycles through each of `edges` on `g`, the one through edges[i] avoiding edges[0..i):
/// each cycle with several of them is counted once. False once the work passes `limit`.
template <class vid_t, class eid_t>
bool through_edges(const graph_view_t<vid_t, eid_t>& g, const std::vector<edge_pair_t<vid_t>>& edges,
                   int64_t bound, int threads, int64_t limit, cancel_token_t cancel,
                   std::vector<uint64_t>& hist, int64_t& work) {
  bool within = true;
  int64_t done = 0;
  const int64_t n = g.num_vertices();
  for_each_search<counter_t<vid_t, eid_t>>(
      threads, static_cast<int64_t>(edges.size()), n, hist.size(), hist, cancel,
      [&](int64_t i, auto& counter, auto& into) {
        const auto [u, v] = edges[static_cast<size_t>(i)];
        // The edges before this one are off limits; a sorted list, so one binary search.
        auto edge_ok = [&](vid_t x, vid_t y) {
          const edge_pair_t<vid_t> e{x, y};
          return !std::binary_search(edges.begin(), edges.begin() + i, e);
        };
        const bool ok = counter.count(g, v, u, bound - 1, 1, [](vid_t) { return true; }, edge_ok,
                                      into, limit);
        const int64_t spent = counter.work();
#pragma omp atomic
        done += spent;
        if (!ok) {
#pragma omp atomic write
          within = false;
        }
      });
  work += done;
  return within && work <= limit;
}

/// The host backends' counting for the shared update steps (detail/update_steps.hpp).
template <class vid_t, class eid_t>
class host_engine_t {
 public:
  host_engine_t(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec)
      : graph_(graph), options_(options), exec_(exec), in_(graph) {}

  bool count_batch(const std::vector<edge_pair_t<vid_t>>& deleted,
                   const std::vector<edge_pair_t<vid_t>>& inserted, int64_t bound, int64_t limit,
                   std::vector<uint64_t>& removed, std::vector<uint64_t>& added, int64_t& work) {
    const int threads = std::min<int>(team_size(exec_, graph_, options_),
                                      static_cast<int>(std::max(deleted.size(), inserted.size())));
    // Removed cycles on the graph before the batch: the insertions hidden, the deletions back.
    graph_view_t<vid_t, eid_t> before(graph_.out_view(), in_.view);
    before.set_overlay(inserted, deleted);
    if (!through_edges(before, deleted, bound, threads, limit, exec_.cancel, removed, work)) {
      return false;
    }
    const graph_view_t<vid_t, eid_t> after(graph_.out_view(), in_.view);
    return through_edges(after, inserted, bound, threads, limit, exec_.cancel, added, work);
  }

  stats_t compute(state_t<vid_t>& state) {
    return ::dyng::cycle_count::compute(graph_, options_, exec_, state);
  }

 private:
  const graph_t<vid_t, eid_t>& graph_;
  options_t options_;
  execution_t exec_;
  in_rows_t<vid_t, eid_t> in_;
};

}  // namespace

void check_options(const options_t& options, const char* fn) {
  if (options.max_length == k_unbounded || options.max_length >= 2) return;
  throw invalid_argument_error(std::string(fn) + ": max_length " +
                               std::to_string(options.max_length) +
                               " is not valid; pass -1 (no limit) or a length >= 2");
}

template <class vid_t, class eid_t>
void check_graph(const graph_t<vid_t, eid_t>& graph, const char* fn) {
  if constexpr (sizeof(vid_t) != 4) {
    throw not_supported_error(std::string(fn) +
                              ": cycle_count needs int32 vertex ids; build the graph with "
                              "vertex_dtype='int32'");
  }
  const auto& props = graph.properties();
  if (props.order != edge_order_t::sorted || props.allow_parallel_edges) {
    throw invalid_argument_error(
        std::string(fn) +
        ": cycle_count needs sorted rows without parallel edges (its searches look edges up in "
        "sorted rows of a simple graph); build the graph with properties='cycle_enum_compatible' "
        "or the default properties");
  }
}

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state) {
  const stage_scope_t count_stage("cycle_count.count");
  constexpr const char* fn = "cycle_count.compute()";
  check_host_backend(exec, fn);
  check_graph(graph, fn);
  check_options(options, fn);
  const int64_t n = graph.num_vertices();
  const int64_t bound = bound_of(options.max_length, n);
  state_t<vid_t> fresh;
  fresh.num_vertices = n;
  fresh.max_length = options.max_length;
  fresh.counts =
      count_all(graph, bound, team_size(exec, graph, options), exec.cancel, fresh.compute_work);
  const stats_t stats = detail::compute_stats(fresh);
  state = std::move(fresh);
  return stats;
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "cycle_count.update()";
  check_host_backend(exec, fn);
  check_graph(graph, fn);
  check_options(options, fn);
  detail::check_same_length(options, state.max_length, fn);
  host_engine_t<vid_t, eid_t> engine(graph, options, exec);
  detail::update_steps_t<vid_t, host_engine_t<vid_t, eid_t>> steps(engine, log, state);
  return run_update(steps, log, graph.num_vertices(), options.repair_budget, fn);
}

template <class vid_t, class eid_t>
std::vector<uint64_t> enumerate_cycles(const graph_t<vid_t, eid_t>& graph, int64_t max_length) {
  constexpr const char* fn = "testing.simple_cycles()";
  check_graph(graph, fn);
  options_t options;
  options.max_length = max_length;
  check_options(options, fn);
  const int64_t n = graph.num_vertices();
  const int64_t bound = bound_of(max_length, n);
  const auto out = graph.out_view();
  std::vector<uint64_t> hist(static_cast<size_t>(bound) + 1, 0);
  // Every simple path from each root through larger vertices, one edge at a time; a path
  // closes a cycle whenever its end has an edge back to the root.
  std::vector<vid_t> path;
  std::vector<eid_t> next;
  std::vector<uint8_t> on_path(static_cast<size_t>(n), 0);
  for (vid_t root = 0; root < n; ++root) {
    path.assign(1, root);
    next.assign(1, out.begin(root));
    on_path[root] = 1;
    while (!path.empty()) {
      const vid_t x = path.back();
      eid_t& j = next.back();
      if (j == out.end(x)) {
        on_path[x] = 0;
        path.pop_back();
        next.pop_back();
        continue;
      }
      const vid_t y = out.neighbour(j++);
      const int64_t length = static_cast<int64_t>(path.size());  // edges once (x, y) is taken
      if (y == root && length >= 2) detail::add_count(hist, length, 1);
      if (y > root && !on_path[y] && length < bound) {
        path.push_back(y);
        next.push_back(out.begin(y));
        on_path[y] = 1;
      }
    }
  }
  return hist;
}

#define DYNG_INSTANTIATE_CYCLE_COUNT(VID, EID)                                                   \
  template void check_graph(const graph_t<VID, EID>&, const char*);                             \
  template stats_t compute(const graph_t<VID, EID>&, const options_t&, const execution_t&,      \
                           state_t<VID>&);                                                      \
  template stats_t update(const graph_t<VID, EID>&, const change_log_t<VID>&, const options_t&, \
                          const execution_t&, state_t<VID>&);                                   \
  template std::vector<uint64_t> enumerate_cycles(const graph_t<VID, EID>&, int64_t);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_CYCLE_COUNT)
#undef DYNG_INSTANTIATE_CYCLE_COUNT

}  // namespace dyng::cycle_count
