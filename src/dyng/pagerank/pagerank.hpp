// PageRank kept current while the graph changes in batches, with NetworkX's definition.
//
// ranks[v] is the stationary probability of a random surfer who follows an out-edge of the
// current vertex with probability alpha (chosen in proportion to the edge's weight when
// `weighted`, uniformly otherwise) and jumps otherwise, to a vertex drawn from the personalization
// vector p (uniform when not given); a vertex without out-edges (or whose out-weights sum to 0)
// steps to a vertex drawn from the dangling vector d (p when not given):
//   x'[v] = alpha * (sum over u->v of x[u] * w(u, v) / W(u) + D * d[v]) + (1 - alpha) * p[v]
// with D the rank of the dangling vertices. compute() runs the power iteration from the uniform
// vector (compute_from: from a given one, networkx.pagerank's nstart) until the L1 change of one
// iteration is below n * tol (the test of networkx.pagerank), pulling over in-edges; its ranks sum
// to 1. The answer is iterative, so an update is not the same bits as a compute: it meets the same
// convergence test and lies within 2 * n * tol / (1 - alpha) in L1 of a fresh compute. Each backend
// is deterministic: the same input gives the same bits for any thread count (sums over vertices run
// in fixed chunks, added in a fixed order).
//
// update() starts from the previous ranks (new vertices at their teleport share
// (1 - alpha) * p[v]) and iterates on a frontier around the changed edges, keeping a bound on the
// L1 change one more full iteration would make; it runs full iterations until the convergence
// test holds only when that bound does not already meet it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/core/result_arrays.hpp"
#include "dyng/core/tuning_knobs.hpp"
#include "dyng/core/update_stats.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::pagerank {

/// NetworkX's parameters, and the tuning knobs (core/tuning_knobs.hpp): repair_budget is a
/// multiple of the stored edges plus vertices (one iteration's reads); parallel_min_edges 0 also
/// runs the team on tiny graphs.
struct options_t : tuning_knobs_t {
  double alpha = 0.85;     ///< Damping: probability of following an out-edge.
  double tol = 1e-6;       ///< Converged when one iteration moves the ranks by < n * tol in L1.
  int64_t max_iter = 100;  ///< Iterations before giving up (Stats.converged false).
  bool weighted = false;   ///< Transition probabilities from the first weight column.
  /// Where a jump lands (p), in vertex-id order; empty: uniform. Non-negative, finite, a
  /// positive sum, at most one entry per vertex: a shorter vector gives the vertices it does not
  /// name 0 (NetworkX's missing keys; after vertex growth, the new ones). Normalised internally.
  std::vector<double> personalization;
  /// Where a dangling vertex steps (d), as personalization; empty: p.
  std::vector<double> dangling;
};

/// A warm start that needs more than 50 iterations' reads is no cheaper than the cold compute,
/// which needs about log(tol) / log(alpha) of them (85 at the defaults).
inline constexpr double k_default_repair_budget = 50.0;
/// On the host, an update whose first frontier round would read more in-edges than this share
/// of one full iteration's reads (edges plus vertices) runs full iterations from the previous
/// ranks instead: a round gathers each listed vertex's in-edges, measured at about 2.3x an
/// iteration's cost per edge (R-MAT 20, 100,000 changes: bench/README.md).
inline constexpr double k_host_first_round_share = 0.4;
/// The first round may always read this many in-edges (on the host and on the GPU): on a graph
/// whose iteration reads a few times that, either way costs little, and a small graph's updates
/// then take the frontier for any batch.
inline constexpr int64_t k_first_round_floor = int64_t{1} << 16;

/// The in-edges a first frontier round may read on a graph whose full iteration reads `scale`
/// (edges plus vertices), for a backend's `share` of it: never below k_first_round_floor.
inline int64_t first_round_limit(double share, double scale) {
  return std::max(k_first_round_floor, static_cast<int64_t>(share * scale));
}
inline constexpr int64_t k_default_parallel_min_edges = 100000;
/// An update's frontier passes a vertex's change on to its out-neighbours when the change each of
/// them sees exceeds this fraction of tol, the average change per vertex that the convergence
/// test allows; smaller changes stay in the residual bound (detail/frontier_iteration.hpp).
inline constexpr double k_frontier_threshold = 1.0;
/// An update skips the full iterations when its residual bound is below this fraction of n * tol:
/// a margin for a check of the test that sums in another order.
inline constexpr double k_certified_fraction = 1.0 - 1e-9;

/// What a result holds besides its ranks.
struct summary_t {
  int64_t iterations = 0;  ///< Iterations (frontier rounds included) of the call.
  /// L1 change of the last full iteration, or of an update that ran none, a bound on the change
  /// one more would make. Either way one more full iteration moves the ranks by at most this.
  double residual = 0.0;
};

/// The totals of a host result's ranks that its next update starts from, so that the update need
/// not add them up over every vertex: the rank held by the graph's dangling vertices and the sum
/// of the ranks, as the call that wrote the ranks kept them along (a compute's last iteration, an
/// update's rounds). Not reported. A clone copies them; a device state does not hold them (it
/// derives from summary_t alone), so a result copied back from a device has none, nor has a
/// weighted one (a change log does not give the old out-weights an update would correct D
/// with): their next update sums the ranks once.
struct rank_totals_t {
  bool totals_known = false;    ///< False: the next update sums the ranks instead.
  double dangling_mass = 0.0;   ///< D of the ranks on the result's graph.
  double dangling_error = 0.0;  ///< Bound on |dangling_mass - D| (rounding along the way).
  double rank_sum = 0.0;        ///< The sum of the ranks, as kept along.
};

template <class vid_t>
struct state_t : summary_t, rank_totals_t {
  std::vector<double> ranks;  ///< Stationary probability of each vertex; they sum to 1.

  // Growth fills 0; the update then starts each new vertex at its teleport share.
  static constexpr auto arrays() {
    return std::tuple{result_array_t<state_t, double>{"ranks", &state_t::ranks, 0.0}};
  }
  static constexpr auto scalars() {
    return std::tuple{result_scalar_t<summary_t, int64_t>{"iterations", &summary_t::iterations},
                      result_scalar_t<summary_t, double>{"residual", &summary_t::residual}};
  }
};

/// The common fields (affected = vertices, iterations, frontier_visits = edges read, converged)
/// and the vertices an update iterated on.
struct stats_t : update_stats_t {
  int64_t vertices_touched = 0;  ///< Vertex rank computations, all iterations together.
  int64_t frontier_size = 0;     ///< Vertices the update's frontier started from (seeds).
  double residual = 0.0;         ///< As summary_t::residual.
  /// Vertices whose rank each iteration computed, in order: an update's frontier rounds, then
  /// its full iterations (n each).
  std::vector<int64_t> touched_per_iteration;
};

/// PageRank of `graph`. Throws invalid_argument_error for a directed graph without in-edges (the
/// iteration pulls over them), for alpha outside [0, 1), tol <= 0, max_iter < 1, weighted on a
/// graph without weights or with a negative weight, and a personalization or dangling vector
/// longer than the graph's vertices, with a negative or non-finite entry, or summing to 0.
template <class vid_t, class eid_t>
stats_t compute(const graph_t<vid_t, eid_t>& graph, const options_t& options,
                const execution_t& exec, state_t<vid_t>& state);

/// compute() starting from `start` (networkx.pagerank's nstart) instead of the uniform vector:
/// checked, padded and normalised as personalization (empty: uniform).
template <class vid_t, class eid_t>
stats_t compute_from(const graph_t<vid_t, eid_t>& graph, const std::vector<double>& start,
                     const options_t& options, const execution_t& exec, state_t<vid_t>& state);

/// Brings `state` (valid for the graph before the batch) up to date after
/// `graph.apply(batch, &log)`, starting from its ranks.
template <class vid_t, class eid_t>
stats_t update(const graph_t<vid_t, eid_t>& graph, const change_log_t<vid_t>& log,
               const options_t& options, const execution_t& exec, state_t<vid_t>& state);

}  // namespace dyng::pagerank
