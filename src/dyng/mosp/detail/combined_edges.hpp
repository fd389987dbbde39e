// The combined graph's edges, derived from the K tree parents.
//
// Vertex v's combined in-edges come from its parent tuple (parent_0[v], ..., parent_{K-1}[v]):
// one edge (u, v) per distinct parent u, weighing L*(K+1) minus L/pref_i for every tree i whose
// parent of v is u. So a vertex whose tuple did not change keeps its in-edges exactly, and an
// update only has to diff the tuples that did.
#pragma once

#include <algorithm>
#include <memory>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dyng/backend/profile.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/huge_pages.hpp"
#include "dyng/core/radix_sort.hpp"
#include "dyng/mosp/detail/combined_store.hpp"
#include "dyng/mosp/mosp.hpp"
#include "dyng/sssp/detail/big_arrays.hpp"

namespace dyng::mosp::detail {

/// L = lcm(preferences) (1 when empty), or -1 once it passes k_max_preference_scale.
inline int64_t preference_scale_of(const std::vector<int64_t>& preferences) {
  int64_t scale = 1;
  for (const int64_t p : preferences) {
    scale = scale / std::gcd(scale, p) * p;
    if (scale > k_max_preference_scale) return -1;
  }
  return scale;
}

/// What membership in tree i takes off an edge's weight: L / pref_i (all L without preferences).
inline std::vector<int64_t> tree_weights_of(const std::vector<int64_t>& preferences, int k,
                                            int64_t scale) {
  std::vector<int64_t> weights(static_cast<size_t>(k), scale);
  for (size_t i = 0; i < preferences.size(); ++i) weights[i] = scale / preferences[i];
  return weights;
}

template <class vid_t>
struct combined_in_edge_t {
  vid_t from;
  int32_t weight;
  bool operator==(const combined_in_edge_t&) const = default;
};

/// v's combined in-edges from its parents parent(i) for i < k, ordered by source, written to
/// `out` (room for k); returns how many. None for a vertex no tree reaches (and for the source,
/// whose parents are all -1). A few entries at most, so a linear search finds a repeated parent
/// and an insertion sort orders them: this runs once per vertex of every compute, where a
/// std::vector and std::sort per vertex would allocate and call out every time.
/// `k` is an int or, for the full pass's common K, a std::integral_constant, so that the loops
/// unroll (the pass over R-MAT 20's 1M vertices with K = 3: see build_combined_csrs()).
template <class vid_t, class parent_fn, class count_t>
int combined_in_edges(parent_fn&& parent, count_t k, const int64_t* tree_weights, int64_t scale,
                      combined_in_edge_t<vid_t>* out) {
  const int64_t full = scale * (k + 1);
  int count = 0;
  for (int i = 0; i < k; ++i) {
    const vid_t u = parent(i);
    if (u < 0) continue;
    int j = 0;
    while (j < count && out[j].from != u) ++j;
    if (j == count) {
      out[count++] = {u, static_cast<int32_t>(full - tree_weights[i])};
    } else {
      out[j].weight = static_cast<int32_t>(out[j].weight - tree_weights[i]);
    }
  }
  for (int a = 1; a < count; ++a) {
    const combined_in_edge_t<vid_t> e = out[a];
    int b = a;
    for (; b > 0 && out[b - 1].from > e.from; --b) out[b] = out[b - 1];
    out[b] = e;
  }
  return count;
}

/// combined_in_edges() into a vector, sized to the edges.
template <class vid_t, class parent_fn>
void combined_in_edges(parent_fn&& parent, int k, const std::vector<int64_t>& tree_weights,
                       int64_t scale, std::vector<combined_in_edge_t<vid_t>>& out) {
  out.resize(static_cast<size_t>(k));
  const int count = combined_in_edges<vid_t>(parent, k, tree_weights.data(), scale, out.data());
  out.resize(static_cast<size_t>(count));
}

/// How many distinct parents (>= 0) v has among parent(i), i < k: its combined in-degree. `k`
/// as for combined_in_edges().
template <class parent_fn, class count_t>
int distinct_parents(parent_fn&& parent, count_t k) {
  int count = 0;
  for (int i = 0; i < k; ++i) {
    const auto u = parent(i);
    bool seen = u < 0;
    for (int j = 0; j < i && !seen; ++j) seen = parent(j) == u;
    count += seen ? 0 : 1;
  }
  return count;
}

/// An in-edge (u, v) with its weight, as the transpose moves it.
template <class vid_t>
struct moved_edge_t {
  vid_t from;
  vid_t to;
  int32_t weight;
};

/// The out-rows of a graph from its in-rows (n + 1 offsets, the rows in ascending v; without
/// weights when in_w and out_w are null): the edges sorted stably by source with
/// radix_sort_by_key() (core/radix_sort.hpp), so every out-row comes out in ascending v. A
/// counting sort's two random accesses per edge into n-entry arrays cost more than the sort on
/// this kind of graph (1M vertices), and its counters would be contended at the trees' hubs.
template <class vid_t>
void transpose_rows(const int64_t* in_ptr, const vid_t* in_col, const int32_t* in_w, int64_t n,
                    int64_t* out_ptr, vid_t* out_col, int32_t* out_w, int threads) {
  const int64_t m = in_ptr[n];
  const int team = std::max(1, threads);
  // Left uninitialised (new[] of a trivial type): the team's first writes fault their pages in
  // parallel instead of one thread zeroing both buffers first.
  const size_t count = static_cast<size_t>(std::max<int64_t>(m, 1));
  std::unique_ptr<moved_edge_t<vid_t>[]> a(new moved_edge_t<vid_t>[count]);
  std::unique_ptr<moved_edge_t<vid_t>[]> b(new moved_edge_t<vid_t>[count]);
  advise_huge_pages(a.get(), count * sizeof(moved_edge_t<vid_t>));
  advise_huge_pages(b.get(), count * sizeof(moved_edge_t<vid_t>));
  moved_edge_t<vid_t>* from = a.get();
  moved_edge_t<vid_t>* into = b.get();
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
  for (int64_t v = 0; v < n; ++v) {
    for (int64_t j = in_ptr[v]; j < in_ptr[v + 1]; ++j) {
      from[j] = {in_col[j], static_cast<vid_t>(v), in_w ? in_w[j] : 0};
    }
  }
  from = radix_sort_by_key(
      from, into, m, key_bits_below(n), [](const moved_edge_t<vid_t>& e) { return e.from; }, team);
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
  for (int64_t j = 0; j < m; ++j) {
    out_col[j] = from[j].to;
    if (out_w) out_w[j] = from[j].weight;
    const int64_t u = from[j].from;
    for (int64_t x = j == 0 ? 0 : static_cast<int64_t>(from[j - 1].from) + 1; x <= u; ++x) {
      out_ptr[x] = j;
    }
  }
  for (int64_t x = m == 0 ? 0 : static_cast<int64_t>(from[m - 1].from) + 1; x <= n; ++x) {
    out_ptr[x] = m;
  }
}

/// The in-rows of the combined graph of the trees (`parents`, n entries each) into `in`: the
/// in-degrees, their prefix sums and the rows, combined_in_edges() sorting each. `k` as for
/// combined_in_edges().
template <class vid_t, class count_t>
void fill_combined_in_rows(const vid_t* const* parents, int64_t n, count_t k,
                           const std::vector<int64_t>& tree_weights, int64_t scale, int threads,
                           csr_t<vid_t, int64_t>& in) {
  [[maybe_unused]] const bool parallel = threads > 1;  // read only by the OpenMP pragmas
  int64_t* in_ptr = in.row_ptr.data();
#pragma omp parallel for num_threads(threads) schedule(static) if (parallel)
  for (int64_t v = 0; v < n; ++v) {
    in_ptr[v + 1] = distinct_parents([&](int i) { return parents[i][v]; }, k);
  }
  for (int64_t v = 0; v < n; ++v) in_ptr[v + 1] += in_ptr[v];
  const int64_t m = in_ptr[n];
  sssp::detail::resize_big(in.col, static_cast<size_t>(m));
  sssp::detail::resize_big(in.weights, static_cast<size_t>(m));
  vid_t* in_col = in.col.data();
  int32_t* in_w = in.weights.data();
#pragma omp parallel num_threads(threads) if (parallel)
  {
    std::vector<combined_in_edge_t<vid_t>> edges(static_cast<size_t>(static_cast<int>(k)));
#pragma omp for schedule(static)
    for (int64_t v = 0; v < n; ++v) {
      const int count = combined_in_edges<vid_t>([&](int i) { return parents[i][v]; }, k,
                                                 tree_weights.data(), scale, edges.data());
      const int64_t at = in_ptr[v];
      for (int e = 0; e < count; ++e) {
        in_col[at + e] = edges[e].from;
        in_w[at + e] = edges[e].weight;
      }
    }
  }
}

/// The combined graph of the trees (their parents, n entries each), as its two CSRs: the in-rows
/// come out final vertex by vertex (fill_combined_in_rows()), and the out-rows are their
/// radix-sort transpose (transpose_rows()), every row sorted. No edge list is scattered, sorted
/// and transposed as from_edges() would. With `threads` > 1 the vertices and edges are shared out
/// for every pass. K of 2 to 4 has its loops unrolled: the in-rows pass runs per vertex with K's
/// short loops inside, which a run-time K leaves as loops.
template <class vid_t>
combined_csrs_t<vid_t> build_combined_csrs(const std::vector<const vid_t*>& parents, int64_t n,
                                           const std::vector<int64_t>& tree_weights, int64_t scale,
                                           int threads = 1) {
  const int k = static_cast<int>(parents.size());
  std::optional<stage_scope_t> stage(std::in_place, "mosp.combined_in_rows");
  combined_csrs_t<vid_t> csrs;
  csr_t<vid_t, int64_t>& in = csrs.in;
  csr_t<vid_t, int64_t>& out = csrs.out;
  in.num_weights = out.num_weights = 1;
  sssp::detail::assign_big(in.row_ptr, static_cast<size_t>(n) + 1, int64_t{0});
  sssp::detail::assign_big(out.row_ptr, static_cast<size_t>(n) + 1, int64_t{0});
  auto fill = [&](auto count) {
    fill_combined_in_rows(parents.data(), n, count, tree_weights, scale, threads, in);
  };
  switch (k) {
    case 2: fill(std::integral_constant<int, 2>{}); break;
    case 3: fill(std::integral_constant<int, 3>{}); break;
    case 4: fill(std::integral_constant<int, 4>{}); break;
    default: fill(k); break;
  }
  const int64_t m = in.row_ptr[static_cast<size_t>(n)];
  sssp::detail::resize_big(out.col, static_cast<size_t>(m));
  sssp::detail::resize_big(out.weights, static_cast<size_t>(m));
  stage.emplace("mosp.combined_transpose");
  transpose_rows(in.row_ptr.data(), in.col.data(), in.weights.data(), n, out.row_ptr.data(),
                 out.col.data(), out.weights.data(), threads > 1 ? threads : 1);
  return csrs;
}

}  // namespace dyng::mosp::detail
