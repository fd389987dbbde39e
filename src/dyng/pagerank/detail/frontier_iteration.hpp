// The frontier phase of a PageRank update (dynamic frontier, after Sahu et al., "DF* PageRank",
// 2024): after a batch, only ranks near the changed edges move much, so the iteration first
// recomputes the ranks of a frontier of vertices, seeded by the changed edges (a vertex whose
// in-edges changed, and every out-neighbour of a vertex whose out-edges changed, since its share
// to each of them changed), and grows the frontier to the out-neighbours of a vertex whose rank
// moved by more than the frontier threshold. A vertex whose out-edges changed may have become or
// stopped being dangling, which moves the dangling rank D and with it every vertex that the
// dangling vector d feeds; the seeds take in those that such a move of D could push past the
// threshold (teleport.hpp: all or none for a uniform d, the heavy entries of a concentrated one). It only brings the ranks close; the caller then runs
// full iterations from them (power_iteration.hpp) until the convergence test of a compute holds,
// so the answer meets that test whatever the frontier missed (the dangling mass, which every
// vertex shares, moves all ranks a little).
//
// Determinism: the frontier is a flag per vertex, read back in vertex order each round; each rank
// of a round is computed from the previous round's ranks (Jacobi), by one thread, in slot order,
// and the dangling mass is a chunked sum; so the bits do not depend on the team's size. Flags are
// set with relaxed atomic stores of the same value (no read-modify-write).
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

#include "dyng/graph/change_log.hpp"
#include "dyng/pagerank/detail/power_iteration.hpp"
#include "dyng/pagerank/detail/teleport.hpp"

namespace dyng::pagerank::detail {

/// What the frontier phase did.
struct frontier_result_t {
  int64_t rounds = 0;
  int64_t edges_read = 0;
  int64_t vertices_touched = 0;
  int64_t seeds = 0;
  bool within_budget = true;
};

template <class vid_t, class eid_t>
class frontier_iteration_t {
 public:
  frontier_iteration_t(const transition_t<vid_t, eid_t>& t,
                       const adjacency_view_t<vid_t, eid_t>& out, bool directed, int threads)
      : t_(t), out_(out), directed_(directed), threads_(threads),
        flags_(static_cast<size_t>(out.num_vertices), 0) {}

  /// Runs rounds on `x` until the frontier empties, `max_rounds` pass or the edges read pass
  /// `edge_budget`; a vertex moved by more than `threshold` brings its out-neighbours in. Polls
  /// `exec.cancel` between rounds (`fn` names the call in the error).
  frontier_result_t run(const change_log_t<vid_t>& log, const teleport_t& teleport, double alpha,
                        double threshold, int64_t max_rounds, int64_t edge_budget,
                        const execution_t& exec, const char* fn, std::vector<double>& x) {
    frontier_result_t result;
    seed(log);
    seed_dangling_targets(log, teleport, alpha, threshold, x);
    const auto n = static_cast<int64_t>(x.size());
    std::vector<vid_t> frontier;
    std::vector<double> next;
    while (result.rounds < max_rounds) {
      throw_if_cancelled(exec, fn);
      collect(frontier);
      if (result.rounds == 0) result.seeds = static_cast<int64_t>(frontier.size());
      if (frontier.empty()) break;
      const double* inv = t_.inverse_out_weight.data();
      const double dangling = chunked_sum(n, threads_, [&](int64_t v) {
        return inv[v] == 0.0 ? x[static_cast<size_t>(v)] : 0.0;
      });
      result.edges_read += round(frontier, teleport, alpha, dangling, threshold, x, next);
      result.vertices_touched += static_cast<int64_t>(frontier.size());
      ++result.rounds;
      if (result.edges_read > edge_budget) {
        result.within_budget = false;
        break;
      }
    }
    return result;
  }

 private:
  void mark(vid_t v) {
    std::atomic_ref<uint8_t>(flags_[static_cast<size_t>(v)]).store(1, std::memory_order_relaxed);
  }
  void mark_out_neighbours(vid_t u) {
    for (eid_t s = out_.begin(u); s < out_.end(u); ++s) mark(out_.neighbour(s));
  }

  void seed(const change_log_t<vid_t>& log) {
    for (const auto& change : log.changes) {
      mark(change.src), mark(change.dst);
      mark_out_neighbours(change.src);
      if (!directed_) mark_out_neighbours(change.dst);
    }
    for (auto v = log.num_vertices_before; v < log.num_vertices_after; ++v) {
      mark(v);
      mark_out_neighbours(v);
    }
  }

  /// Seeds the vertices that d feeds when D may have moved: by at most the rank of the vertices
  /// whose dangling state may have changed (dangling now, or with an out-edge inserted or
  /// reweighted; new vertices), each counted once, in increasing order.
  void seed_dangling_targets(const change_log_t<vid_t>& log, const teleport_t& teleport,
                             double alpha, double threshold, const std::vector<double>& x) {
    const double* inv = t_.inverse_out_weight.data();
    std::vector<vid_t> maybe;
    for (const auto& change : log.changes) {
      if (inv[change.src] == 0.0 || change.kind != edge_change_kind_t::deleted)
        maybe.push_back(change.src);
    }
    for (auto v = log.num_vertices_before; v < log.num_vertices_after; ++v) maybe.push_back(v);
    std::sort(maybe.begin(), maybe.end());
    maybe.erase(std::unique(maybe.begin(), maybe.end()), maybe.end());
    double mass = 0.0;
    for (const vid_t u : maybe) mass += x[static_cast<size_t>(u)];
    mark_dangling_targets(teleport, static_cast<int64_t>(x.size()), alpha, mass, threshold,
                          [&](int64_t v) { mark(static_cast<vid_t>(v)); });
  }

  /// The flagged vertices in increasing order; clears the flags.
  void collect(std::vector<vid_t>& frontier) {
    frontier.clear();
    for (size_t v = 0; v < flags_.size(); ++v) {
      if (flags_[v] == 0) continue;
      frontier.push_back(static_cast<vid_t>(v));
      flags_[v] = 0;
    }
  }

  /// One Jacobi round over `frontier`; returns the edges read.
  int64_t round(const std::vector<vid_t>& frontier, const teleport_t& teleport, double alpha,
                double dangling, double threshold, std::vector<double>& x,
                std::vector<double>& next) {
    const auto size = static_cast<int64_t>(frontier.size());
    next.resize(frontier.size());
    const double* inv = t_.inverse_out_weight.data();
    int64_t edges = 0;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 64) reduction(+ : edges)
    for (int64_t i = 0; i < size; ++i) {
      const vid_t v = frontier[static_cast<size_t>(i)];
      double sum = 0.0;
      for (eid_t s = t_.in.begin(v); s < t_.in.end(v); ++s) {
        const vid_t u = t_.in.neighbour(s);
        const double share = x[static_cast<size_t>(u)] * inv[u];
        sum += t_.weighted ? share * t_.in.weight(s, 0) : share;
      }
      next[static_cast<size_t>(i)] = teleport.constant_part(v, alpha, dangling) + alpha * sum;
      edges += static_cast<int64_t>(t_.in.degree(v));
    }
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 64)
    for (int64_t i = 0; i < size; ++i) {
      const vid_t v = frontier[static_cast<size_t>(i)];
      const double moved = std::fabs(next[static_cast<size_t>(i)] - x[static_cast<size_t>(v)]);
      x[static_cast<size_t>(v)] = next[static_cast<size_t>(i)];
      if (moved > threshold) {
        mark(v);
        mark_out_neighbours(v);
      }
    }
    return edges;
  }

  const transition_t<vid_t, eid_t>& t_;
  adjacency_view_t<vid_t, eid_t> out_;
  bool directed_;
  int threads_;
  std::vector<uint8_t> flags_;
};

}  // namespace dyng::pagerank::detail
