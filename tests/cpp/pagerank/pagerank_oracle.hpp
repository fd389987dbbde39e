// A PageRank oracle that shares nothing with the kernels: the edge list read into a dense n x n
// transition matrix (parallel edges add up, an undirected edge goes both ways), then the power
// iteration of networkx.pagerank on it, run to a tolerance far below the one under test. The
// personalization and dangling vectors are padded and normalised here on their own (empty:
// uniform; dangling empty: personalization).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace dyng_test {

/// `given` padded with zeros to n entries and scaled to sum 1; uniform when empty.
inline std::vector<double> oracle_vector(std::vector<double> given, size_t n) {
  if (given.empty()) return std::vector<double>(n, 1.0 / static_cast<double>(n));
  given.resize(n, 0.0);
  double sum = 0.0;
  for (double w : given) sum += w;
  for (double& w : given) w /= sum;
  return given;
}

template <class vid_t, class eid_t>
std::vector<double> oracle_ranks(const dyng::graph_t<vid_t, eid_t>& g, double alpha, bool weighted,
                                 const std::vector<double>& personalization = {},
                                 const std::vector<double>& dangling_given = {}) {
  const auto n = static_cast<size_t>(g.num_vertices());
  const auto p = oracle_vector(personalization, n);
  const auto d = dangling_given.empty() ? p : oracle_vector(dangling_given, n);
  std::vector<std::vector<double>> a(n, std::vector<double>(n, 0.0));
  const auto out = g.out_view();
  for (size_t u = 0; u < n; ++u) {
    for (auto s = out.begin(static_cast<vid_t>(u)); s < out.end(static_cast<vid_t>(u)); ++s) {
      a[u][static_cast<size_t>(out.neighbour(s))] += weighted ? out.weight(s, 0) : 1.0;
    }
  }
  std::vector<double> x(n, 1.0 / static_cast<double>(n)), next(n);
  for (int it = 0; it < 2000; ++it) {
    double dangling = 0.0;
    std::vector<double> row_sum(n, 0.0);
    for (size_t u = 0; u < n; ++u) {
      for (size_t v = 0; v < n; ++v) row_sum[u] += a[u][v];
      if (row_sum[u] == 0.0) dangling += x[u];
    }
    for (size_t v = 0; v < n; ++v) next[v] = alpha * dangling * d[v] + (1.0 - alpha) * p[v];
    for (size_t u = 0; u < n; ++u) {
      for (size_t v = 0; v < n; ++v) {
        if (a[u][v] != 0.0) next[v] += alpha * x[u] * a[u][v] / row_sum[u];
      }
    }
    double change = 0.0;
    for (size_t v = 0; v < n; ++v) change += std::fabs(next[v] - x[v]);
    x.swap(next);
    if (change < 1e-15) break;
  }
  return x;
}

/// The L1 change one more full iteration (networkx.pagerank's) makes to `x`: the quantity of the
/// convergence test, from the edge list alone.
template <class vid_t, class eid_t>
double one_iteration_change(const dyng::graph_t<vid_t, eid_t>& g, const std::vector<double>& x,
                            double alpha, bool weighted) {
  const auto n = x.size();
  const auto out = g.out_view();
  std::vector<double> next(n, 0.0);
  double dangling = 0.0;
  for (size_t u = 0; u < n; ++u) {
    const auto row = static_cast<vid_t>(u);
    double total = 0.0;
    for (auto s = out.begin(row); s < out.end(row); ++s) total += weighted ? out.weight(s, 0) : 1.0;
    if (total == 0.0) {
      dangling += x[u];
      continue;
    }
    for (auto s = out.begin(row); s < out.end(row); ++s) {
      next[static_cast<size_t>(out.neighbour(s))] +=
          alpha * x[u] * (weighted ? out.weight(s, 0) : 1.0) / total;
    }
  }
  double change = 0.0;
  for (size_t v = 0; v < n; ++v) {
    change += std::fabs(next[v] + (alpha * dangling + 1.0 - alpha) / static_cast<double>(n) - x[v]);
  }
  return change;
}

inline double l1_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (size_t i = 0; i < a.size(); ++i) d += std::fabs(a[i] - b[i]);
  return d;
}

}  // namespace dyng_test
