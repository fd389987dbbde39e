// The power iteration of PageRank, pulled over in-edges (networkx.pagerank's iteration):
//   x'[v] = alpha * (sum over edges u->v of x[u] * w(u, v) / W(u) + D * d[v]) + (1 - alpha) * p[v]
// where W(u) is u's out-weight (out-degree unweighted), D the rank held by vertices with
// W(u) == 0, p the personalization and d the dangling vector (teleport.hpp; uniform 1/n when not
// given), until sum |x' - x| < n * tol. Page, Brin, Motwani and Winograd, "The PageRank
// citation ranking", 1999.
//
// Determinism: each x'[v] is summed by one thread in the in-row's slot order, and every sum over
// vertices (D, the L1 change) adds per-chunk partial sums, chunks of a fixed size, in chunk
// order; so the bits do not depend on the team's size, and the sequential backend (a team of one)
// gives the same bits as OpenMP. Pull, so no atomics. Requires the in-edges view (the out view of
// an undirected graph).
//
// The pass that adds up an iteration's L1 change also adds the new ranks and the rank of the
// dangling vertices among them (the next iteration's D, which it then need not sum again), so a
// run ends knowing both for its last iterate: an update starts from them instead of passing over
// every vertex (rank_totals_t in pagerank.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/pagerank/detail/teleport.hpp"

namespace dyng::pagerank::detail {

/// Vertices per partial sum; fixed, so sums do not depend on the number of threads.
inline constexpr int64_t k_sum_chunk = 4096;

/// What one iteration of a whole run reads besides the ranks.
template <class vid_t, class eid_t>
struct transition_t {
  adjacency_view_t<vid_t, eid_t> in;
  std::vector<double> inverse_out_weight;  ///< 1 / W(u), 0 where W(u) == 0 (dangling).
  bool weighted = false;
};

/// The transition of `out` and `in`: per-vertex out-weights, summed in slot order.
template <class vid_t, class eid_t>
transition_t<vid_t, eid_t> make_transition(const adjacency_view_t<vid_t, eid_t>& out,
                                           const adjacency_view_t<vid_t, eid_t>& in, bool weighted,
                                           int threads) {
  const auto n = static_cast<int64_t>(out.num_vertices);
  transition_t<vid_t, eid_t> t{in, std::vector<double>(static_cast<size_t>(n), 0.0), weighted};
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    const auto u = static_cast<vid_t>(v);
    double w = 0.0;
    if (weighted) {
      for (eid_t s = out.begin(u); s < out.end(u); ++s) w += out.weight(s, 0);
    } else {
      w = static_cast<double>(out.degree(u));
    }
    t.inverse_out_weight[static_cast<size_t>(v)] = w > 0.0 ? 1.0 / w : 0.0;
  }
  return t;
}

/// The k sums of f(v) (a std::array<double, k>) over all vertices, each in fixed chunks added in
/// order: one pass for several sums, each with the bits chunked_sum() gives it alone.
template <size_t k, class F>
std::array<double, k> chunked_sums(int64_t n, int threads, F f) {
  const int64_t chunks = (n + k_sum_chunk - 1) / k_sum_chunk;
  std::vector<std::array<double, k>> partial(static_cast<size_t>(chunks));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t last = std::min(n, (c + 1) * k_sum_chunk);
    std::array<double, k> sum{};
    for (int64_t v = c * k_sum_chunk; v < last; ++v) {
      const std::array<double, k> terms = f(v);
      for (size_t i = 0; i < k; ++i) sum[i] += terms[i];
    }
    partial[static_cast<size_t>(c)] = sum;
  }
  std::array<double, k> total{};
  for (const auto& p : partial) {
    for (size_t i = 0; i < k; ++i) total[i] += p[i];
  }
  return total;
}

/// Sum of f(v) over all vertices in fixed chunks added in order.
template <class F>
double chunked_sum(int64_t n, int threads, F f) {
  return chunked_sums<1>(n, threads, [&](int64_t v) { return std::array<double, 1>{f(v)}; })[0];
}

/// Bound on the rounding error of a chunked sum of n non-negative terms adding up to `total`:
/// each term passes through at most k_sum_chunk additions in its chunk and n / k_sum_chunk in
/// the total, each off by at most eps times the partial sum (at most the total); 8 to spare.
inline double chunked_sum_error(int64_t n, double total) {
  return std::numeric_limits<double>::epsilon() *
         static_cast<double>(k_sum_chunk + n / k_sum_chunk + 8) * total;
}

/// What a run did.
struct run_result_t {
  int64_t iterations = 0;
  double residual = 0.0;
  int64_t edges_read = 0;
  bool converged = false;
  double dangling = 0.0;  ///< Rank held by the dangling vertices in the last iterate (chunked).
  double sum = 0.0;       ///< Sum of the last iterate's ranks (chunked).
};

/// Iterates `x` (n entries, summing to 1) until converged or `max_iter`; x holds the last
/// iterate. Stops early, giving up, once the edges read would pass `edge_budget`; polls
/// `exec.cancel` between iterations (`fn` names the call in the error).
template <class vid_t, class eid_t>
run_result_t power_iterate(const transition_t<vid_t, eid_t>& t, const teleport_t& teleport,
                           double alpha, double tol, int64_t max_iter, int64_t edge_budget,
                           int threads, const execution_t& exec, const char* fn,
                           std::vector<double>& x) {
  const auto n = static_cast<int64_t>(x.size());
  run_result_t run;
  if (n == 0) {
    run.converged = true;
    return run;
  }
  std::vector<double> contribution(static_cast<size_t>(n));
  std::vector<double> next(static_cast<size_t>(n));
  const double* inv = t.inverse_out_weight.data();
  const double nd = static_cast<double>(n);
  // D of the current iterate: summed here for the start, then by each iteration's change pass.
  double dangling = chunked_sum(
      n, threads, [&](int64_t v) { return inv[v] == 0.0 ? x[static_cast<size_t>(v)] : 0.0; });
  while (run.iterations < max_iter) {
    throw_if_cancelled(exec, fn);
    const double* xs = x.data();
    double* cs = contribution.data();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; ++v) cs[v] = xs[v] * inv[v];
    int64_t edges = 0;
    double* ns = next.data();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256) reduction(+ : edges)
    for (int64_t v = 0; v < n; ++v) {
      const auto u = static_cast<vid_t>(v);
      double sum = 0.0;
      if (t.weighted) {
        for (eid_t s = t.in.begin(u); s < t.in.end(u); ++s)
          sum += cs[t.in.neighbour(s)] * t.in.weight(s, 0);
      } else {
        for (eid_t s = t.in.begin(u); s < t.in.end(u); ++s) sum += cs[t.in.neighbour(s)];
      }
      ns[v] = teleport.constant_part(v, alpha, dangling) + alpha * sum;
      edges += static_cast<int64_t>(t.in.degree(u));
    }
    const auto [residual, next_dangling, next_sum] = chunked_sums<3>(n, threads, [&](int64_t v) {
      return std::array<double, 3>{std::fabs(ns[v] - xs[v]), inv[v] == 0.0 ? ns[v] : 0.0, ns[v]};
    });
    run.residual = residual;
    dangling = next_dangling;
    run.dangling = next_dangling;
    run.sum = next_sum;
    x.swap(next);
    ++run.iterations;
    run.edges_read += edges + n;
    if (run.residual < nd * tol) {
      run.converged = true;
      return run;
    }
    if (run.edges_read > edge_budget) return run;
  }
  return run;
}

}  // namespace dyng::pagerank::detail
