// Host entry points of cycle_count (sequential and OpenMP backends): compute counts every cycle
// from its root, update counts the cycles through the batch's changed edges on the graph before
// and after it (cycle_count.hpp), both with the path counter of detail/cycle_paths.hpp, or
// Johnson's search (detail/johnson.hpp) where every length counts; update runs under the shared
// dynamic-update policy. Both poll the caller's stop flag (execution_t::cancel) in their searches
// and throw interrupted_error after the team, the result untouched.
#include "dyng/cycle_count/cycle_count.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#if defined(DYNG_HAVE_OPENMP)
#include <omp.h>
#endif

#include "dyng/backend/profile.hpp"
#include "dyng/core/entry_points.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/cycle_count/detail/cycle_graph.hpp"
#include "dyng/cycle_count/detail/cycle_paths.hpp"
#include "dyng/cycle_count/detail/histogram.hpp"
#include "dyng/cycle_count/detail/johnson.hpp"
#include "dyng/cycle_count/detail/tally.hpp"
#include "dyng/whole_graph_count/host_entry.hpp"

namespace dyng::cycle_count {
namespace {

using detail::edge_pair_t;

constexpr const char* k_compute_fn = "cycle_count.compute()";
constexpr const char* k_update_fn = "cycle_count.update()";

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

template <class vid_t, class eid_t>
using johnson_t = detail::johnson_counter_t<graph_view_t<vid_t, eid_t>>;

/// A count alone hands its remaining items to the team once its work passes this many units
/// (path vertices and row slots; a team costs about that much to start): a graph below
/// parallel_min_edges may still hold millions of cycles.
constexpr int64_t k_team_work = int64_t{1} << 16;

/// Runs body(i, counter, hist) for first <= i < last on a team (or alone), each thread with its
/// own counter (a counter_type on n vertices, polling exec's cancel token) and histogram, and
/// sums the histograms into `total`. Alone, it stops before item i once hand_over() says so and
/// returns i (else `last`). The first exception is rethrown once every thread has stopped; once
/// the caller asks to stop, the threads skip their remaining items (a body's counter leaves its
/// item early) and interrupted_error, naming `fn`, is thrown after the team.
template <class counter_type, class F, class H>
int64_t for_each_search(int threads, const execution_t& exec, const char* fn, int64_t first,
                        int64_t last, int64_t n, size_t hist_size, std::vector<uint64_t>& total,
                        F&& body, H&& hand_over) {
  const cancel_token_t cancel = exec.cancel;
  if (threads <= 1) {
    counter_type counter(n, cancel);
    int64_t i = first;
    for (; i < last && !cancel.requested() && !hand_over(); ++i) body(i, counter, total);
    throw_if_cancelled(exec, fn);
    return i;
  }
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
      counter_type counter(n, cancel);
      // Small chunks: a work item can be a hub's whole search; consecutive items mostly share a
      // root, which a counter then prepares once.
#pragma omp for schedule(dynamic, 4)
      for (int64_t i = first; i < last; ++i) {
        if (!failures[me] && !cancel.requested()) {
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
  throw_if_cancelled(exec, fn);
  for (const auto& h : hists) detail::add_histogram(total, h);
  return last;
}

/// Every cycle, from its root (the simple paths root -> ... -> root through larger vertices),
/// through the work items of a counter_type: one for the root, then one per slot of its out-row
/// (the cycles whose first edge it holds), so that a team shares a hub's search out instead of
/// keeping one thread busy after the others are done (R-MAT's low ids are hubs whose searches
/// alone would outlast everything else). A graph too small for a team from the start is counted
/// alone until its work passes k_team_work, and the team takes the rest.
template <class counter_type, class vid_t, class eid_t>
void count_by_first_edge(const graph_t<vid_t, eid_t>& graph, const graph_view_t<vid_t, eid_t>& g,
                         int64_t bound, int team, const execution_t& exec, const char* fn,
                         std::vector<uint64_t>& hist, int64_t& work) {
  const auto out = graph.out_view();
  const int64_t n = graph.num_vertices();
  std::vector<int64_t> first_item(static_cast<size_t>(n) + 1, 0);
  for (vid_t r = 0; r < n; ++r) first_item[r + 1] = first_item[r] + 1 + out.degree(r);
  const int64_t items = first_item[n];
  int64_t total = 0;
  auto body = [&](int64_t i, auto& counter, auto& into) {
    const auto at = std::upper_bound(first_item.begin(), first_item.end(), i) - 1;
    const vid_t root = static_cast<vid_t>(at - first_item.begin());
    const int64_t before = counter.work();
    counter.begin_root(g, root, bound);
    if (i == *at) {
      counter.root_item(g, into);
    } else {
      counter.child_item(g, out.neighbour(out.begin(root) + static_cast<eid_t>(i - *at - 1)), into);
    }
    const int64_t spent = counter.work() - before;
#pragma omp atomic
    total += spent;
  };
  int64_t next = 0;
  if (team <= 1) {
    next = for_each_search<counter_type>(1, exec, fn, 0, items, n, hist.size(), hist, body,
                                         [&] { return total >= k_team_work; });
    team = host_team_size(exec, total, k_team_work);
  }
  if (next < items) {
    for_each_search<counter_type>(team, exec, fn, next, items, n, hist.size(), hist, body,
                                  [] { return false; });
  }
  work = total;
}

/// Every cycle, by the counter that suits the bound.
template <class vid_t, class eid_t>
std::vector<uint64_t> count_all(const graph_t<vid_t, eid_t>& graph, int64_t bound, int team,
                                const execution_t& exec, const char* fn, int64_t& work) {
  const in_rows_t<vid_t, eid_t> in(graph);
  const graph_view_t<vid_t, eid_t> g(graph.out_view(), in.view);
  std::vector<uint64_t> hist(static_cast<size_t>(bound) + 1, 0);
  if (bound >= graph.num_vertices()) {
    // Every length counts: Johnson's blocking is exact, and output-sensitive where the bounded
    // search would walk the same dead ends again and again.
    count_by_first_edge<johnson_t<vid_t, eid_t>>(graph, g, bound, team, exec, fn, hist, work);
  } else {
    count_by_first_edge<counter_t<vid_t, eid_t>>(graph, g, bound, team, exec, fn, hist, work);
  }
  return hist;
}

/// The edges the searches through edges[i] may take: all but edges[0..i), a sorted list.
template <class vid_t>
struct earlier_edges_barred_t {
  const std::vector<edge_pair_t<vid_t>>& edges;
  size_t i;
  /// Per vertex: whether `edges` holds an edge out of it (most rows hold none, and their slots
  /// skip the binary search).
  const std::vector<uint8_t>& changed_from;

  bool operator()(vid_t x, vid_t y) const {
    return !changed_from[x] ||
           !std::binary_search(edges.begin(), edges.begin() + static_cast<std::ptrdiff_t>(i),
                               edge_pair_t<vid_t>{x, y});
  }
  /// Whether some edge out of x may be barred.
  bool restricts(vid_t x) const { return changed_from[x] != 0; }
};

/// The cycles through each of `edges` on `g`, the one through edges[i] avoiding edges[0..i):
/// each cycle with several of them is counted once, by a counter_type's searches. False once the
/// work passes `limit` (the searches left are then skipped: the update recomputes).
template <class counter_type, class vid_t, class eid_t>
bool through_edges(const graph_view_t<vid_t, eid_t>& g,
                   const std::vector<edge_pair_t<vid_t>>& edges, int64_t bound, int threads,
                   const execution_t& exec, int64_t limit, std::vector<uint64_t>& hist,
                   int64_t& work) {
  bool within = true;
  int64_t done = 0;
  const int64_t n = g.num_vertices();
  std::vector<uint8_t> changed_from(static_cast<size_t>(n), 0);
  for (const auto& [u, v] : edges) changed_from[u] = 1;
  for_each_search<counter_type>(
      threads, exec, k_update_fn, 0, static_cast<int64_t>(edges.size()), n, hist.size(), hist,
      [&](int64_t i, auto& counter, auto& into) {
        bool going;
#pragma omp atomic read
        going = within;
        if (!going) return;
        const auto [u, v] = edges[static_cast<size_t>(i)];
        const earlier_edges_barred_t<vid_t> edge_ok{edges, static_cast<size_t>(i), changed_from};
        const bool ok =
            counter.count(g, v, u, bound - 1, 1, [](vid_t) { return true; }, edge_ok, into, limit);
        const int64_t spent = counter.work();
#pragma omp atomic
        done += spent;
        if (!ok) {
#pragma omp atomic write
          within = false;
        }
      },
      [] { return false; });
  work += done;
  return within && work <= limit;
}

/// compute() for a checked graph and options; `fn` names the public call (an update's recompute
/// is interrupted as the update).
template <class vid_t, class eid_t>
stats_t count_into(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                   const execution_t& exec, const char* fn, state_t<vid_t>& state) {
  const int64_t n = graph.num_vertices();
  using tally_t = detail::tally_t<vid_t>;
  return whole_graph_count::count_fresh<tally_t>(state, n, [&](state_t<vid_t>& fresh) {
    fresh.max_length = options.max_length;
    const int team = whole_graph_count::team_size<tally_t>(exec, graph, options);
    fresh.counts =
        count_all(graph, bound_of(options.max_length, n), team, exec, fn, fresh.compute_work);
  });
}

/// The host backends' counting for the shared update steps (whole_graph_count/update_steps.hpp).
template <class vid_t, class eid_t>
class host_engine_t {
 public:
  host_engine_t(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec)
      : graph_(graph), options_(options), exec_(exec), in_(graph) {}

  bool count_batch(const std::vector<edge_pair_t<vid_t>>& deleted,
                   const std::vector<edge_pair_t<vid_t>>& inserted, int64_t limit,
                   std::vector<uint64_t>& removed, std::vector<uint64_t>& added, int64_t& work) {
    const auto bound = static_cast<int64_t>(removed.size()) - 1;
    const int threads = whole_graph_count::batch_team_size<detail::tally_t<vid_t>>(
        exec_, graph_, options_, deleted.size(), inserted.size());
    // Removed cycles on the graph before the batch: the insertions hidden, the deletions back.
    graph_view_t<vid_t, eid_t> before(graph_.out_view(), in_.view);
    before.set_overlay(inserted, deleted);
    const graph_view_t<vid_t, eid_t> after(graph_.out_view(), in_.view);
    if (bound >= static_cast<int64_t>(graph_.num_vertices())) {
      // Every length counts: Johnson's searches, as for a compute.
      return through_edges<johnson_t<vid_t, eid_t>>(before, deleted, bound, threads, exec_, limit,
                                                    removed, work) &&
             through_edges<johnson_t<vid_t, eid_t>>(after, inserted, bound, threads, exec_, limit,
                                                    added, work);
    }
    return through_edges<counter_t<vid_t, eid_t>>(before, deleted, bound, threads, exec_, limit,
                                                  removed, work) &&
           through_edges<counter_t<vid_t, eid_t>>(after, inserted, bound, threads, exec_, limit,
                                                  added, work);
  }

  stats_t compute(state_t<vid_t>& state) {
    return count_into(graph_, options_, exec_, k_update_fn, state);
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
  constexpr const char* fn = k_compute_fn;
  check_host_backend(exec, fn);
  check_graph(graph, fn);
  check_options(options, fn);
  return count_into(graph, options, exec, fn, state);
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = k_update_fn;
  check_host_backend(exec, fn);
  check_graph(graph, fn);
  check_options(options, fn);
  detail::check_same_length(options, state.max_length, fn);
  return whole_graph_count::update_on_host<detail::tally_t<vid_t>, host_engine_t<vid_t, eid_t>>(
      graph, log, options, exec, state, fn);
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

DYNG_INSTANTIATE_ENTRY_POINTS(host, whole)
#define DYNG_INSTANTIATE_CYCLE_COUNT_EXTRAS(VID, EID)               \
  template void check_graph(const graph_t<VID, EID>&, const char*); \
  template std::vector<uint64_t> enumerate_cycles(const graph_t<VID, EID>&, int64_t);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_CYCLE_COUNT_EXTRAS)
#undef DYNG_INSTANTIATE_CYCLE_COUNT_EXTRAS

}  // namespace dyng::cycle_count
