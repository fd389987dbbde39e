// The frontier phase of a PageRank update (dynamic frontier with pruning, after Sahu et al., "DF*
// PageRank", 2024): after a batch, only ranks near the changed edges move much, so the iteration
// recomputes the ranks of a frontier of vertices only. The seeds are the heads of the changed
// edges (their in-rows changed) and, where a tail's share to each out-neighbour changed by more
// than the threshold, the tail's out-neighbours. A vertex whose out-edges changed may have become
// or stopped being dangling, which moves the dangling rank D and with it every vertex that the
// dangling vector d feeds; the seeds also take in those that such a move of D could push past the
// threshold (teleport.hpp: all or none for a uniform d, the heavy entries of a concentrated one).
// A recomputed vertex passes its change on, bringing its out-neighbours into the next round, only
// when the change each of them sees (alpha * |change| / out-weight) exceeds the threshold;
// otherwise it drops out (pruning).
//
// The phase also keeps a bound on how far one more full iteration would move the ranks, the
// quantity of the convergence test, so that the caller can skip the full iterations when the bound
// already meets the test. Write r(x) = P(x) - x for the full iteration P. At the start,
// |r(x)|_1 <= the previous bound (the caller's, for the old graph) plus what the batch changed:
// alpha * x[u] * (L1 change of u's transition column) summed over the changed tails u. A Jacobi
// round over F sets x[v] to P(x)[v] for v in F, a change d with d[v] = r(x)[v] on F, so the new
// residual is r(x) off F plus the linear part of P applied to d: its L1 norm is at most
// bound - |d|_1 + alpha * |d|_1. Each round lowers the bound by (1 - alpha) * |d|_1, less the
// rounding of the ranks it computed (counted generously). So whatever the frontier leaves out, the
// bound stays true, and the caller runs full iterations whenever it does not meet the test.
//
// Cost: the rounds work on the caller's ranks in place and list what they overwrite (the caller
// undoes a repair it gives up on). The dangling mass D and the sum of the ranks are kept along
// with each round's changes; they start from the previous result's (rank_totals_t in
// pagerank.hpp: a compute's last iteration and an update's rounds leave them), with D corrected
// for the changed tails that became or stopped being dangling, so that besides the frontier a
// small batch costs only the caller's one pass scaling the ranks to sum 1. A result without them
// (copied from a device), a weighted one (whose old out-weights the change log does not give)
// and a batch that adds vertices sum them once instead. D feeds every rank a round computes, so
// how far the kept D may be from the exact sum is bounded as it goes (dangling_error: the
// compute's chunked sum, each correction and each round's additions, eps times the sizes added)
// and carried from result to result; each round counts twice that bound against the residual
// bound, which stays true whatever D's rounding.
//
// Determinism: the frontier is a flag per vertex (each thread also lists the ones it set), read
// back in vertex order each round; each rank of a round is computed from the previous round's
// ranks (Jacobi), by one thread, in slot order;
// the dangling mass is a chunked sum or corrected in vertex order, and the bound's sums are over
// fixed chunks of the frontier;
// so the bits do not depend on the team's size. Flags are set with relaxed atomic stores of the
// same value (no read-modify-write).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <omp.h>

#include "dyng/graph/change_log.hpp"
#include "dyng/pagerank/pagerank.hpp"
#include "dyng/pagerank/detail/frontier_result.hpp"
#include "dyng/pagerank/detail/frontier_seeds.hpp"
#include "dyng/pagerank/detail/power_iteration.hpp"
#include "dyng/pagerank/detail/teleport.hpp"

namespace dyng::pagerank::detail {

template <class vid_t, class eid_t>
class frontier_iteration_t {
 public:
  /// `out` is the graph's out-edges (both directions of an undirected graph, whose change log
  /// records both). Unweighted, `t` may leave inverse_out_weight empty: the phase then takes
  /// 1 / out-degree from `out` where it needs it, sparing a pass over every vertex.
  frontier_iteration_t(const transition_t<vid_t, eid_t>& t,
                       const adjacency_view_t<vid_t, eid_t>& out, int threads)
      : t_(t),
        out_(out),
        threads_(threads),
        flags_(static_cast<size_t>(out.num_vertices), 0),
        marked_(static_cast<size_t>(threads > 0 ? threads : 1)) {}

  /// Runs rounds on `x` until the frontier empties, `max_rounds` pass or the edges read pass
  /// `edge_budget`; `threshold` is the change an out-neighbour must see to join. A first round
  /// that would read more than `first_round_limit` in-edges is not run (within_budget false,
  /// nothing of `x` written): a batch that large is cheaper to repair by full iterations.
  /// `start_bound` bounds the L1 change one more full iteration on the graph before the batch
  /// would make to `x` (infinite when unknown); `totals` are those of `x` on the graph before
  /// the batch (unknown: summed here). Each rank a round overwrites goes to `previous` (vertex,
  /// rank before) as the round writes it, so the caller can undo even a run that threw. Polls
  /// `exec.cancel` between rounds (`fn` names the call).
  frontier_result_t<vid_t> run(const change_log_t<vid_t>& log, const teleport_t& teleport,
                               double alpha, double threshold, int64_t max_rounds,
                               int64_t edge_budget, int64_t first_round_limit, double start_bound,
                               const rank_totals_t& totals, const execution_t& exec, const char* fn,
                               std::vector<double>& x,
                               std::vector<std::pair<vid_t, double>>& previous) {
    frontier_result_t<vid_t> result;
    // The first round lists every head: when their in-edges alone pass the limit, the batch is
    // given up before the seed plan, which costs a good part of a round itself.
    if (heads_in_edges(log) > first_round_limit) {
      result.within_budget = false;
      return result;
    }
    result.residual_bound = start_bound + seed(log, teleport, alpha, threshold, x);
    const double eps = std::numeric_limits<double>::epsilon();
    auto [dangling, dangling_error, sum] = start_totals(log, totals, x);
    std::vector<vid_t> frontier;
    std::vector<double> next;
    while (result.rounds < max_rounds) {
      throw_if_cancelled(exec, fn);
      collect(frontier);
      if (result.rounds == 0) result.seeds = static_cast<int64_t>(frontier.size());
      if (frontier.empty()) break;
      if (result.rounds == 0 && in_edges_of(frontier) > first_round_limit) {
        result.within_budget = false;
        break;
      }
      const auto done = round(frontier, teleport, alpha, dangling, threshold, x, next, previous);
      result.edges_read += done.edges;
      result.residual_bound -= (1.0 - alpha) * done.moved - done.rounding - 2.0 * dangling_error;
      dangling += done.dangling_change;
      sum += done.change;
      dangling_error +=
          eps * static_cast<double>(frontier.size() + 8) * (std::fabs(dangling) + done.moved);
      result.vertices_touched += static_cast<int64_t>(frontier.size());
      result.touched_per_round.push_back(static_cast<int64_t>(frontier.size()));
      ++result.rounds;
      if (result.edges_read > edge_budget) {
        result.within_budget = false;
        break;
      }
    }
    result.sum = sum;
    result.dangling = dangling;
    result.dangling_error = dangling_error;
    return result;
  }

 private:
  struct round_t {
    int64_t edges = 0;
    double moved = 0.0;            ///< L1 change of the round.
    double change = 0.0;           ///< Its change of the sum of the ranks.
    double dangling_change = 0.0;  ///< Its change of the dangling mass.
    double rounding = 0.0;         ///< Bound on twice the rounding error of the ranks it computed.
  };

  /// The in-edges of the batch's heads, each head counted once (`flags_` are clear before and
  /// after).
  int64_t heads_in_edges(const change_log_t<vid_t>& log) {
    int64_t edges = 0;
    for (const auto& change : log.changes) {
      uint8_t& flag = flags_[static_cast<size_t>(change.dst)];
      if (flag != 0) continue;
      flag = 1;
      edges += static_cast<int64_t>(t_.in.degree(change.dst));
    }
    for (const auto& change : log.changes) flags_[static_cast<size_t>(change.dst)] = 0;
    return edges;
  }

  /// The in-edges a round over `frontier` reads.
  int64_t in_edges_of(const std::vector<vid_t>& frontier) const {
    int64_t edges = 0;
    for (const vid_t v : frontier) edges += static_cast<int64_t>(t_.in.degree(v));
    return edges;
  }

  /// 1 / W(u), 0 for a dangling vertex; from the out-degree where the transition has no array.
  double inverse_out(vid_t u) const {
    if (!t_.inverse_out_weight.empty()) return t_.inverse_out_weight[static_cast<size_t>(u)];
    const auto degree = static_cast<double>(out_.degree(u));
    return degree > 0.0 ? 1.0 / degree : 0.0;
  }

  /// True when u has no out-weight (it jumps uniformly); no division, for the pass over all.
  bool is_dangling(vid_t u) const {
    return t_.inverse_out_weight.empty() ? out_.begin(u) == out_.end(u)
                                         : t_.inverse_out_weight[static_cast<size_t>(u)] == 0.0;
  }

  /// (rank held by dangling vertices, sum of the ranks), in fixed chunks added in order.
  std::pair<double, double> dangling_and_sum(const std::vector<double>& x) const {
    const auto n = static_cast<int64_t>(x.size());
    const int64_t chunks = (n + k_sum_chunk - 1) / k_sum_chunk;
    std::vector<std::pair<double, double>> partial(static_cast<size_t>(chunks));
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t c = 0; c < chunks; ++c) {
      double dangling = 0.0, sum = 0.0;
      for (int64_t v = c * k_sum_chunk; v < std::min(n, (c + 1) * k_sum_chunk); ++v) {
        const double r = x[static_cast<size_t>(v)];
        sum += r;
        dangling += is_dangling(static_cast<vid_t>(v)) ? r : 0.0;
      }
      partial[static_cast<size_t>(c)] = {dangling, sum};
    }
    std::pair<double, double> total{0.0, 0.0};
    for (const auto& [dangling, sum] : partial) total.first += dangling, total.second += sum;
    return total;
  }

  /// (D, bound on D's error, sum) of `x` on the changed graph: the previous result's `totals`
  /// with D corrected for the tails the batch made or stopped being dangling (their degree
  /// before is the degree now less the net insertions), added in increasing vertex order; or
  /// summed over every vertex where that does not apply (see the file's comment).
  std::array<double, 3> start_totals(const change_log_t<vid_t>& log, const rank_totals_t& totals,
                                     const std::vector<double>& x) const {
    const auto n = static_cast<int64_t>(x.size());
    if (!totals.totals_known || t_.weighted || log.num_vertices_after != log.num_vertices_before) {
      const auto [dangling, sum] = dangling_and_sum(x);
      return {dangling, chunked_sum_error(n, dangling), sum};
    }
    std::vector<std::pair<vid_t, int64_t>> tails;
    tails.reserve(log.changes.size());
    for (const auto& change : log.changes) {
      const int64_t net = change.kind == edge_change_kind_t::inserted  ? 1
                          : change.kind == edge_change_kind_t::deleted ? -1
                                                                       : 0;
      tails.emplace_back(change.src, net);
    }
    std::sort(tails.begin(), tails.end());
    double dangling = totals.dangling_mass;
    double moved = 0.0;
    int64_t flips = 0;
    for (size_t i = 0; i < tails.size();) {
      const vid_t u = tails[i].first;
      int64_t net = 0;
      for (; i < tails.size() && tails[i].first == u; ++i) net += tails[i].second;
      const auto now = static_cast<int64_t>(out_.degree(u));
      if ((now == 0) == (now - net == 0)) continue;
      const double r = x[static_cast<size_t>(u)];
      dangling += now == 0 ? r : -r;
      moved += r;
      ++flips;
    }
    const double eps = std::numeric_limits<double>::epsilon();
    const double error = totals.dangling_error + eps * static_cast<double>(flips + 2) *
                                                     (std::fabs(totals.dangling_mass) + moved);
    return {dangling, error, totals.rank_sum};
  }

  /// Flags v and lists it in list `me` (the calling thread's: twice at worst, when two threads
  /// flag it at once, and collect() drops repeats).
  void mark(vid_t v, size_t me) {
    std::atomic_ref<uint8_t> flag(flags_[static_cast<size_t>(v)]);
    if (flag.load(std::memory_order_relaxed) != 0) return;
    flag.store(1, std::memory_order_relaxed);
    marked_[me].push_back(v);
  }
  void mark_out_neighbours(vid_t u, size_t me) {
    for (eid_t s = out_.begin(u); s < out_.end(u); ++s) mark(out_.neighbour(s), me);
  }

  /// Marks the seeds (frontier_seeds.hpp); returns the L1 change the batch made to one full
  /// iteration of `x`.
  double seed(const change_log_t<vid_t>& log, const teleport_t& teleport, double alpha,
              double threshold, const std::vector<double>& x) {
    const auto plan = plan_seeds(
        seed_tails_t<vid_t>(log), log, t_.weighted, alpha, threshold,
        [&](vid_t u, size_t) { return x[static_cast<size_t>(u)]; },
        [&](vid_t u, size_t) { return is_dangling(u); },
        [&](vid_t u, size_t) { return static_cast<int64_t>(out_.degree(u)); });
    for (const auto& change : log.changes) mark(change.dst, 0);
    for (const vid_t u : plan.expand) mark_out_neighbours(u, 0);
    for (vid_t v = log.num_vertices_before; v < log.num_vertices_after; ++v) mark(v, 0);
    mark_dangling_targets(teleport, static_cast<int64_t>(x.size()), alpha, plan.dangling_mass,
                          threshold, [&](int64_t v) { mark(static_cast<vid_t>(v), 0); });
    return plan.shift;
  }

  /// The flagged vertices in increasing order; clears the flags. From the threads' lists, sorted,
  /// when they are short; by a pass over the flags otherwise (the same vertices either way).
  void collect(std::vector<vid_t>& frontier) {
    frontier.clear();
    size_t listed = 0;
    for (const auto& list : marked_) listed += list.size();
    if (listed * 16 < flags_.size()) {
      for (auto& list : marked_) frontier.insert(frontier.end(), list.begin(), list.end());
      std::sort(frontier.begin(), frontier.end());
      frontier.erase(std::unique(frontier.begin(), frontier.end()), frontier.end());
      for (const vid_t v : frontier) flags_[static_cast<size_t>(v)] = 0;
    } else {
      for (size_t v = 0; v < flags_.size(); ++v) {
        if (flags_[v] == 0) continue;
        frontier.push_back(static_cast<vid_t>(v));
        flags_[v] = 0;
      }
    }
    for (auto& list : marked_) list.clear();
  }

  /// One Jacobi round over `frontier`; appends the ranks it overwrites to `previous`.
  round_t round(const std::vector<vid_t>& frontier, const teleport_t& teleport, double alpha,
                double dangling, double threshold, std::vector<double>& x,
                std::vector<double>& next, std::vector<std::pair<vid_t, double>>& previous) {
    const auto size = static_cast<int64_t>(frontier.size());
    next.resize(frontier.size());
    int64_t edges = 0;
    // One vertex at a time: the frontier of a small batch is the heads of its changed edges,
    // mostly hubs, and on R-MAT the lowest ids (a chunk of 64 of them held 38% of a 1,000-change
    // batch's in-edges on R-MAT 20, one thread's work for a team of any size).
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1) reduction(+ : edges)
    for (int64_t i = 0; i < size; ++i) {
      const vid_t v = frontier[static_cast<size_t>(i)];
      double sum = 0.0;
      for (eid_t s = t_.in.begin(v); s < t_.in.end(v); ++s) {
        const vid_t u = t_.in.neighbour(s);
        const double share = x[static_cast<size_t>(u)] * inverse_out(u);
        sum += t_.weighted ? share * t_.in.weight(s, 0) : share;
      }
      next[static_cast<size_t>(i)] = teleport.constant_part(v, alpha, dangling) + alpha * sum;
      edges += static_cast<int64_t>(t_.in.degree(v));
    }
    round_t done;
    done.edges = edges;
    // The rest of the round is a few operations per vertex: a team only for a large frontier
    // (a small one is a single chunk, and waking the team would cost more than the work).
    const int team = size > k_sum_chunk ? threads_ : 1;
    const double eps = std::numeric_limits<double>::epsilon();
    const auto [moved, change, dangling_change, rounding] =
        chunked_sums<4>(size, team, [&](int64_t i) {
          const vid_t v = frontier[static_cast<size_t>(i)];
          const double after = next[static_cast<size_t>(i)];
          const double step = after - x[static_cast<size_t>(v)];
          const auto degree = static_cast<double>(t_.in.degree(v));
          return std::array<double, 4>{std::fabs(step), step, is_dangling(v) ? step : 0.0,
                                       4.0 * eps * (degree + 4.0) * after};
        });
    done.moved = moved;
    done.change = change;
    done.dangling_change = dangling_change;
    done.rounding = rounding;
    for (const vid_t v : frontier) previous.emplace_back(v, x[static_cast<size_t>(v)]);
#pragma omp parallel for num_threads(team) schedule(dynamic, 64)
    for (int64_t i = 0; i < size; ++i) {
      const vid_t v = frontier[static_cast<size_t>(i)];
      const double step = std::fabs(next[static_cast<size_t>(i)] - x[static_cast<size_t>(v)]);
      x[static_cast<size_t>(v)] = next[static_cast<size_t>(i)];
      if (alpha * step * inverse_out(v) > threshold)
        mark_out_neighbours(v, static_cast<size_t>(omp_get_thread_num()));
    }
    return done;
  }

  const transition_t<vid_t, eid_t>& t_;
  adjacency_view_t<vid_t, eid_t> out_;
  int threads_;
  std::vector<uint8_t> flags_;
  std::vector<std::vector<vid_t>> marked_;  ///< Per thread: the vertices it flagged.
};

}  // namespace dyng::pagerank::detail
