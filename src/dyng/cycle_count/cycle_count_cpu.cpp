// Host entry points of cycle_count (sequential and OpenMP backends): compute counts every cycle
// from its root, update counts the cycles through the batch's changed edges on the graph before
// and after it (cycle_count.hpp), both with the path counter of detail/cycle_paths.hpp; update
// runs under the shared dynamic-update policy.
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

#include "dyng/core/dynamic_update.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/cycle_count/detail/cycle_graph.hpp"
#include "dyng/cycle_count/detail/cycle_paths.hpp"
#include "dyng/cycle_count/detail/histogram.hpp"
#include "dyng/cycle_count/detail/johnson.hpp"

namespace dyng::cycle_count {
namespace {

using detail::edge_pair_t;

constexpr int64_t k_no_limit = std::numeric_limits<int64_t>::max();
constexpr int64_t k_work_floor = 1024;

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

/// Runs body(i, counter, hist) for i < count on a team (or alone), each thread with its own
/// counter (a counter_type on n vertices) and histogram, and sums the histograms into `total`.
/// The first exception is rethrown once every thread has stopped.
template <class counter_type, class F>
void for_each_search(int threads, int64_t count, int64_t n, size_t hist_size,
                     std::vector<uint64_t>& total, F&& body) {
  if (threads <= 1) {
    counter_type counter(n);
    for (int64_t i = 0; i < count; ++i) body(i, counter, total);
    return;
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
      counter_type counter(n);
      // Small chunks: a work item can be a hub's whole search; consecutive items mostly share a
      // root, which a counter then prepares once.
#pragma omp for schedule(dynamic, 4)
      for (int64_t i = 0; i < count; ++i) {
        if (!failures[me]) {
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
                                int64_t& work) {
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
        threads, n, n, hist.size(), hist, [&](int64_t i, auto& counter, auto& into) {
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
      threads, first_item[n], n, hist.size(), hist, [&](int64_t i, auto& counter, auto& into) {
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

int64_t changed_lengths(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  const size_t n = std::max(a.size(), b.size());
  int64_t changed = 0;
  for (size_t l = 0; l < n; ++l) {
    changed += (l < a.size() ? a[l] : 0) != (l < b.size() ? b[l] : 0) ? 1 : 0;
  }
  return changed;
}

int64_t nonzero_lengths(const std::vector<uint64_t>& counts) {
  return std::count_if(counts.begin(), counts.end(), [](uint64_t c) { return c != 0; });
}

/// The batch's effective edge changes: deleted and inserted (u, v), u != v, each sorted, with
/// an edge both deleted and inserted (it exists before and after) dropped from both.
template <class vid_t>
void changed_edges(const change_log_t<vid_t>& log, std::vector<edge_pair_t<vid_t>>& deleted,
                   std::vector<edge_pair_t<vid_t>>& inserted) {
  for (const auto& c : log.changes) {
    if (c.src == c.dst) continue;
    if (c.kind == edge_change_kind_t::deleted) deleted.push_back({c.src, c.dst});
    if (c.kind == edge_change_kind_t::inserted) inserted.push_back({c.src, c.dst});
  }
  for (auto* list : {&deleted, &inserted}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  std::vector<edge_pair_t<vid_t>> both;
  std::set_intersection(deleted.begin(), deleted.end(), inserted.begin(), inserted.end(),
                        std::back_inserter(both));
  auto drop = [&](std::vector<edge_pair_t<vid_t>>& list) {
    std::vector<edge_pair_t<vid_t>> kept;
    std::set_difference(list.begin(), list.end(), both.begin(), both.end(),
                        std::back_inserter(kept));
    list.swap(kept);
  };
  drop(deleted);
  drop(inserted);
}

/// The cycles through each of `edges` on `g`, the one through edges[i] avoiding edges[0..i):
/// each cycle with several of them is counted once. False once the work passes `limit`.
template <class vid_t, class eid_t>
bool count_through(const graph_view_t<vid_t, eid_t>& g, const std::vector<edge_pair_t<vid_t>>& edges,
                   int64_t bound, int threads, int64_t limit, std::vector<uint64_t>& hist,
                   int64_t& work) {
  bool within = true;
  int64_t done = 0;
  const int64_t n = g.num_vertices();
  for_each_search<counter_t<vid_t, eid_t>>(
      threads, static_cast<int64_t>(edges.size()), n, hist.size(), hist,
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

/// The policy's steps (core/dynamic_update.hpp) for a histogram: growth resizes it to the new
/// bound, the repair adds what the batch added and takes away what it removed, undo restores
/// the copy kept before the first change.
template <class vid_t, class eid_t>
class update_steps_t {
 public:
  using stats_type = stats_t;

  update_steps_t(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                 const execution_t& exec, state_t<vid_t>& state)
      : graph_(graph), options_(options), exec_(exec), state_(state), saved_(state.counts) {}

  int64_t result_vertices() const { return state_.num_vertices; }
  /// The last full count's work, with a floor so that a tiny graph's repair is not given up at
  /// once.
  int64_t work_scale() const { return std::max(state_.compute_work, k_work_floor); }
  double default_budget() const { return k_default_repair_budget; }
  void grow(int64_t n) {
    state_.num_vertices = n;
    state_.counts.resize(static_cast<size_t>(bound_of(state_.max_length, n)) + 1, 0);
  }
  void shrink(int64_t n) noexcept {
    state_.num_vertices = n;
    state_.counts = saved_;
  }

  bool repair(const change_log_t<vid_t>& log, int64_t budget, stats_t& stats) {
    stats.record({"operators", "edge_paths"});
    std::vector<edge_pair_t<vid_t>> deleted, inserted;
    changed_edges(log, deleted, inserted);
    stats.deletions = static_cast<int64_t>(deleted.size());
    stats.insertions = static_cast<int64_t>(inserted.size());
    stats.frontier_visits = stats.deletions + stats.insertions;
    const int64_t bound = bound_of(state_.max_length, state_.num_vertices);
    const in_rows_t<vid_t, eid_t> in(graph_);
    const int threads = std::min<int>(team_size(exec_, graph_, options_),
                                      static_cast<int>(std::max(deleted.size(), inserted.size())));
    std::vector<uint64_t> removed(static_cast<size_t>(bound) + 1, 0), added = removed;
    int64_t work = 0;
    // Removed cycles on the graph before the batch: the insertions hidden, the deletions back.
    graph_view_t<vid_t, eid_t> before(graph_.out_view(), in.view);
    before.set_overlay(inserted, deleted);
    if (!count_through(before, deleted, bound, threads, budget, removed, work)) return false;
    const graph_view_t<vid_t, eid_t> after(graph_.out_view(), in.view);
    if (!count_through(after, inserted, bound, threads, budget, added, work)) return false;
    std::vector<uint64_t> counts = state_.counts;
    for (size_t l = 0; l < counts.size(); ++l) {
      if (counts[l] < removed[l]) {
        throw internal_error("cycle_count.update(): more cycles of length " + std::to_string(l) +
                             " removed than there were; this is a bug in dyng");
      }
      counts[l] -= removed[l];
    }
    detail::add_histogram(counts, added);
    for (size_t l = 0; l < counts.size(); ++l) {
      stats.cycles_removed += removed[l];
      stats.cycles_added += added[l];
    }
    stats.affected = changed_lengths(counts, saved_);
    state_.counts.swap(counts);
    return true;
  }

  void undo() noexcept {
    state_.counts.resize(saved_.size());
    std::copy(saved_.begin(), saved_.end(), state_.counts.begin());
    state_.counts.resize(static_cast<size_t>(bound_of(state_.max_length, state_.num_vertices)) + 1,
                         0);
  }

  void recompute(stats_t& stats) {
    stats_t fresh = compute(graph_, options_, exec_, state_);
    fresh.deletions = stats.deletions;
    fresh.insertions = stats.insertions;
    fresh.frontier_visits = stats.frontier_visits;
    fresh.affected = changed_lengths(state_.counts, saved_);
    // A recompute does not see which cycles went and came: it reports the net change per length.
    for (size_t l = 0; l < state_.counts.size(); ++l) {
      const uint64_t before = l < saved_.size() ? saved_[l] : 0, now = state_.counts[l];
      (now > before ? fresh.cycles_added : fresh.cycles_removed) +=
          now > before ? now - before : before - now;
    }
    stats = fresh;
  }

 private:
  const graph_t<vid_t, eid_t>& graph_;
  options_t options_;
  execution_t exec_;
  state_t<vid_t>& state_;
  std::vector<uint64_t> saved_;
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
  constexpr const char* fn = "cycle_count.compute()";
  check_host_backend(exec, fn);
  check_graph(graph, fn);
  check_options(options, fn);
  const int64_t n = graph.num_vertices();
  const int64_t bound = bound_of(options.max_length, n);
  state_t<vid_t> fresh;
  fresh.num_vertices = n;
  fresh.max_length = options.max_length;
  fresh.counts = count_all(graph, bound, team_size(exec, graph, options), fresh.compute_work);
  stats_t stats;
  stats.record({"operators", "rooted_paths"});
  stats.path = update_path_t::compute;
  stats.affected = nonzero_lengths(fresh.counts);
  stats.frontier_visits = n;
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
  if (options.max_length != state.max_length) {
    throw invalid_argument_error(std::string(fn) + ": max_length " +
                                 std::to_string(options.max_length) + " differs from the " +
                                 std::to_string(state.max_length) +
                                 " the result was computed with; compute a new result instead");
  }
  update_steps_t<vid_t, eid_t> steps(graph, options, exec, state);
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
