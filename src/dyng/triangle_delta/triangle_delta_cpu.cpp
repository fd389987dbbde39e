// Host entry points of triangle_delta (sequential and OpenMP backends): compute intersects the
// rows of every edge, update intersects those of the batch's changed edges on the graph before
// and after it (detail/triangles.hpp), under the shared dynamic-update policy.
#include "dyng/triangle_delta/triangle_delta.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/entry_points.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/triangle_delta/detail/tally.hpp"
#include "dyng/triangle_delta/detail/triangles.hpp"
#include "dyng/whole_graph_count/host_entry.hpp"

namespace dyng::triangle_delta {
namespace {

using detail::edge_pair_t;

/// Vertices per dynamic chunk of a team's compute: small, since one hub's row can be most of
/// the work.
constexpr int64_t k_compute_chunk = 64;

/// What a count throws when its caller's flag asks it to stop.
constexpr const char* k_count_stopped = "triangle_delta count";

/// Every triangle of `g`; throws interrupted_error once `cancel` asks.
template <class vid_t, class eid_t>
uint64_t count_all(const adjacency_view_t<vid_t, eid_t>& g, int threads, int64_t& work,
                   cancel_token_t cancel) {
  const int64_t n = g.num_vertices;
  team_stop_t stop(cancel);
  uint64_t found = 0;
  if (threads <= 1) {
    found = detail::triangles_from(g, vid_t{0}, static_cast<vid_t>(n), work, stop);
    throw_if_cancelled(stop, k_count_stopped);
    return found;
  }
  int64_t total_work = 0;
  const int64_t chunks = (n + k_compute_chunk - 1) / k_compute_chunk;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : found, total_work)
  for (int64_t c = 0; c < chunks; ++c) {
    const auto first = static_cast<vid_t>(c * k_compute_chunk);
    const auto last = static_cast<vid_t>(std::min(n, (c + 1) * k_compute_chunk));
    found += detail::triangles_from(g, first, last, total_work, stop);
  }
  throw_if_cancelled(stop, k_count_stopped);
  work += total_work;
  return found;
}

/// The triangles through each of `edges`, each counted at the first changed edge it holds.
/// False once the work passes `limit`; throws interrupted_error once `cancel` asks.
template <class vid_t, class eid_t>
bool through_edges(const adjacency_view_t<vid_t, eid_t>& g,
                   const std::vector<edge_pair_t<vid_t>>& edges,
                   const detail::overlay_t<vid_t>* overlay, int threads, int64_t limit,
                   uint64_t& found, int64_t& work, cancel_token_t cancel) {
  const auto count = static_cast<int64_t>(edges.size());
  uint64_t total = 0;
  int64_t spent = 0;
  team_stop_t stop(cancel);
  if (threads <= 1) {
    for (int64_t i = 0; i < count && work + spent <= limit && !stop.poll(); ++i) {
      total += detail::triangles_through(g, edges, static_cast<size_t>(i), overlay, spent);
    }
  } else {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16) reduction(+ : total, spent)
    for (int64_t i = 0; i < count; ++i) {
      if (stop.poll()) continue;
      total += detail::triangles_through(g, edges, static_cast<size_t>(i), overlay, spent);
    }
  }
  throw_if_cancelled(stop, k_count_stopped);
  found += total;
  work += spent;
  return work <= limit;
}

/// The host backends' counting for the shared update steps (whole_graph_count/update_steps.hpp).
template <class vid_t, class eid_t>
class host_engine_t {
 public:
  host_engine_t(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec)
      : graph_(graph), options_(options), exec_(exec) {}

  bool count_batch(const std::vector<edge_pair_t<vid_t>>& deleted,
                   const std::vector<edge_pair_t<vid_t>>& inserted, int64_t limit,
                   uint64_t& removed, uint64_t& added, int64_t& work) {
    const int threads = whole_graph_count::batch_team_size<detail::tally_t<vid_t>>(
        exec_, graph_, options_, deleted.size(), inserted.size());
    const auto g = graph_.out_view();
    // Removed triangles on the graph before the batch: its insertions hidden, deletions shown.
    const detail::overlay_t<vid_t> before(inserted, deleted);
    if (!through_edges(g, deleted, &before, threads, limit, removed, work, exec_.cancel)) {
      return false;
    }
    return through_edges(g, inserted, static_cast<const detail::overlay_t<vid_t>*>(nullptr),
                         threads, limit, added, work, exec_.cancel);
  }

  stats_t compute(state_t<vid_t>& state) {
    return ::dyng::triangle_delta::compute(graph_, options_, exec_, state);
  }

 private:
  const graph_t<vid_t, eid_t>& graph_;
  options_t options_;
  execution_t exec_;
};

}  // namespace

template <class vid_t, class eid_t>
void check_graph(const graph_t<vid_t, eid_t>& graph, const char* fn) {
  const auto& props = graph.properties();
  if (!props.directed && props.order == edge_order_t::sorted && !props.allow_parallel_edges) {
    return;
  }
  throw invalid_argument_error(
      std::string(fn) +
      ": triangle_delta needs an undirected graph with sorted rows and without parallel edges "
      "(it intersects sorted rows of a simple graph); build it with directed=False and the "
      "default properties");
}

template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "triangle_delta.compute()";
  check_host_backend(exec, fn);
  check_graph(graph, fn);
  return whole_graph_count::count_fresh<detail::tally_t<vid_t>>(
      state, graph.num_vertices(), [&](state_t<vid_t>& fresh) {
        const int team = whole_graph_count::team_size<detail::tally_t<vid_t>>(exec, graph, options);
        fresh.count = count_all(graph.out_view(), team, fresh.compute_work, exec.cancel);
      });
}

template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state) {
  constexpr const char* fn = "triangle_delta.update()";
  check_host_backend(exec, fn);
  check_graph(graph, fn);
  return whole_graph_count::update_on_host<detail::tally_t<vid_t>, host_engine_t<vid_t, eid_t>>(
      graph, log, options, exec, state, fn);
}

DYNG_INSTANTIATE_ENTRY_POINTS(host, whole)
#define DYNG_INSTANTIATE_TRIANGLE_DELTA_CHECK(VID, EID) \
  template void check_graph(const graph_t<VID, EID>&, const char*);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_TRIANGLE_DELTA_CHECK)
#undef DYNG_INSTANTIATE_TRIANGLE_DELTA_CHECK

}  // namespace dyng::triangle_delta
