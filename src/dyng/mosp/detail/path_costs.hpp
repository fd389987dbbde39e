// Path costs along the MOSP tree: cost[v][i] = cost[p][i] + w_i(p, v) for v's MOSP parent p,
// cost[source] = 0, k_infinite_distance in every column for unreachable vertices.
//
// With parallel edges the weights of (p, v) are those of the first (p, v) slot in p's out-row
// (the edge an upsert rewrites, as in 0.2). The walk goes down the tree's child lists, not the
// graph's rows, so a leaf's row is never read; a child's slot is found by binary search in a
// sorted row, and in an append-order row by a scan, which a parent with many children does once
// for all of them (a hub's children would otherwise cost a scan each). The full pass finds every
// slot of a level before it adds any weight (compute_path_costs() says why); the repair below the
// moved vertices goes parent by parent (costs_of_children()).
//
// When each (p, v) has one slot (no parallel edges, sorted rows) and in-rows are kept, a full
// pass with the MOSP distances at hand takes another route (costs_in_distance_order()): the
// vertices sorted by distance, each child's edge found in its own in-row. On skewed graphs a
// child's in-row is short where its parent's out-row is a hub's, and the order costs less than
// the tree walk's child lists.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include "dyng/core/radix_sort.hpp"
#include "dyng/core/share_scan.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/mosp/detail/combined_edges.hpp"
#include "dyng/sssp/detail/big_arrays.hpp"
#include "dyng/sssp/detail/search_rows.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::mosp::detail {

/// Children per parent at most for which an append-order row is searched once per child.
inline constexpr size_t k_scan_children_separately = 4;

/// The first slot of neighbour `w` in row `u` of `view`, whose rows are sorted, or -1.
template <class vid_t, class eid_t>
eid_t first_slot_in_sorted_row(const adjacency_view_t<vid_t, eid_t>& view, vid_t u, vid_t w) {
  const vid_t* const first = view.col + view.begin(u);
  const vid_t* const last = view.col + view.end(u);
  const vid_t* at = std::lower_bound(first, last, w);
  return at != last && *at == w ? static_cast<eid_t>(at - view.col) : eid_t{-1};
}

/// A child's costs from its parent's (`from`) and the weights of slot j of `view`: all infinite
/// when there is no such edge (j < 0: a tree edge that is no graph edge, which
/// testing.mosp_path_costs checks for) or the parent has no path.
template <class vid_t, class eid_t>
void costs_through(const adjacency_view_t<vid_t, eid_t>& view, eid_t j, int k, const int64_t* from,
                   int64_t* to) {
  const bool reached = j >= 0 && from[0] != sssp::k_infinite_distance;
  for (int i = 0; i < k; ++i) {
    to[i] = reached ? from[i] + view.weight(j, i) : sssp::k_infinite_distance;
  }
}

/// The graph's out-rows as path costs read them.
template <class vid_t, class eid_t>
struct cost_rows_t {
  adjacency_view_t<vid_t, eid_t> out;
  bool sorted = false;
  int k = 0;  ///< objectives: the first k weight columns
  /// The in-rows, when a child's parent edge may be read there: every (p, v) has one slot (no
  /// parallel edges), so its weights in v's in-row are those of p's out-row, and rows are sorted.
  std::optional<adjacency_view_t<vid_t, eid_t>> unique_in;

  /// The first slot of (p, w) in p's row, or -1.
  eid_t first_slot(vid_t p, vid_t w) const {
    if (sorted) return first_slot_in_sorted_row(out, p, w);
    const eid_t first = out.begin(p), last = out.end(p);
    for (eid_t j = first; j < last; ++j) {
      if (out.neighbour(j) == w) return j;
    }
    return -1;
  }
};

/// Writes the costs of the children `kids` of p (all with parent p); on_changed(w) for each child
/// whose costs changed. `slot_of` (n entries, -1 on entry and on return) is scratch for the
/// scan of a row with many children.
template <class vid_t, class eid_t, class changed_fn>
void costs_of_children(const cost_rows_t<vid_t, eid_t>& rows, vid_t p, std::span<const vid_t> kids,
                       std::vector<eid_t>& slot_of, int64_t* costs, changed_fn&& on_changed) {
  const int k = rows.k;
  const bool scan = !rows.sorted && kids.size() > k_scan_children_separately;
  if (scan) {
    for (const vid_t w : kids) slot_of[w] = -2;  // wanted, not found yet
    for (eid_t j = rows.out.begin(p); j < rows.out.end(p); ++j) {
      const vid_t w = rows.out.neighbour(j);
      if (slot_of[w] == -2) slot_of[w] = j;
    }
  }
  const int64_t* from = costs + static_cast<int64_t>(p) * k;
  for (const vid_t w : kids) {
    const eid_t j = scan ? slot_of[w] : rows.first_slot(p, w);
    if (scan) slot_of[w] = -1;
    int64_t* to = costs + static_cast<int64_t>(w) * k;
    bool changed = false;
    // A tree edge that is no graph edge (testing.mosp_path_costs checks for it), or a parent
    // without a path, leaves the child unreachable.
    const bool reached = j >= 0 && from[0] != sssp::k_infinite_distance;
    for (int i = 0; i < k; ++i) {
      const int64_t c = reached ? from[i] + rows.out.weight(j, i) : sssp::k_infinite_distance;
      changed = changed || to[i] != c;
      to[i] = c;
    }
    if (changed) on_changed(w);
  }
}

/// The tree of `parents` as compute_path_costs() walks it: its vertices level by level from the
/// source, each parent's children together and ascending, so that a level's children, and a
/// parent's, are contiguous ranges; order[first[q]], ... order[first[q + 1] - 1] are the children
/// of order[q]. A vertex lists as a child only with a parent in [0, n) other than itself; the
/// source is never a child (its costs are 0 whatever its entry says), so the walk ends.
///
/// Built on `threads` (each pass shared out): the children lists are the tree's one in-edge per
/// vertex turned into out-rows by the combined graph's radix transpose, and each level is
/// written by a running sum over its parents' child counts (core/share_scan.hpp). Done by one
/// thread it is a serial part that grows with the team's other parts shrinking.
template <class vid_t>
struct tree_order_t {
  std::vector<vid_t> order;
  std::vector<int64_t> first;  ///< order.size() + 1 entries

  tree_order_t(const vid_t* parents, int64_t n, vid_t source, int threads = 1) {
    auto parent_of = [&](int64_t v) {
      const vid_t p = parents[v];
      return v != source && p >= 0 && p < n && p != v ? p : vid_t{-1};
    };
    // The tree as in-rows (row v: its parent, if it lists as a child) ...
    std::vector<int64_t> up_ptr;
    std::vector<vid_t> up_col;
    sssp::detail::resize_big(up_ptr, static_cast<size_t>(n) + 1);
    sssp::detail::resize_big(up_col, static_cast<size_t>(n));
    up_ptr[0] = 0;
    const int64_t edges = scan_shares(
        n, threads,
        [&](int64_t lo, int64_t hi) {
          int64_t count = 0;
          for (int64_t v = lo; v < hi; ++v) count += parent_of(v) >= 0 ? 1 : 0;
          return count;
        },
        [&](int64_t lo, int64_t hi, int64_t at) {
          for (int64_t v = lo; v < hi; ++v) {
            const vid_t p = parent_of(v);
            if (p >= 0) up_col[at++] = p;
            up_ptr[v + 1] = at;
          }
        });
    // ... and its out-rows, children ascending: p's are children[start[p], start[p + 1]).
    std::vector<int64_t> start;
    std::vector<vid_t> children;
    sssp::detail::resize_big(start, static_cast<size_t>(n) + 1);
    sssp::detail::resize_big(children, static_cast<size_t>(edges));
    transpose_rows<vid_t>(up_ptr.data(), up_col.data(), nullptr, n, start.data(), children.data(),
                          nullptr, threads);
    up_ptr = {};
    up_col = {};
    sssp::detail::resize_big(order, static_cast<size_t>(edges) + 1);
    sssp::detail::resize_big(first, static_cast<size_t>(edges) + 2);
    order[0] = source;
    int64_t size = 1;
    for (int64_t a = 0, b = 1; a < b;) {
      // A narrow level is not worth a team's start-up.
      const int team = b - a >= 4096 ? threads : 1;
      const int64_t kids = scan_shares(
          b - a, team,
          [&](int64_t lo, int64_t hi) {
            int64_t count = 0;
            for (int64_t q = a + lo; q < a + hi; ++q) {
              count += start[order[q] + 1] - start[order[q]];
            }
            return count;
          },
          [&](int64_t lo, int64_t hi, int64_t at) {
            at += b;
            for (int64_t q = a + lo; q < a + hi; ++q) {
              first[q] = at;
              const vid_t p = order[q];
              for (int64_t c = start[p]; c < start[p + 1]; ++c) order[at++] = children[c];
            }
          });
      size = b + kids;
      a = b;
      b = size;
    }
    first[size] = size;
    order.resize(static_cast<size_t>(size));
    first.resize(static_cast<size_t>(size) + 1);
  }
};

/// How far ahead the cost passes prefetch (rows and weights of later children, their costs).
inline constexpr size_t k_cost_prefetch = 8;

/// The slot of each child's parent edge (cost_rows_t::first_slot()) for the parents at positions
/// [a, b) of `tree`: slot[i] and owner[i] (the parent) for every child position i. In a sorted
/// row the children, ascending, are searched for one after another in what is left of the row;
/// an append-order row with many children is scanned once for all of them, marking them in
/// `slot_of` (n entries, -1 on entry and on return). Only p's thread touches the marks of p's
/// children, and the scan reads a neighbour's mark only once its parent says it is p's child.
template <class vid_t, class eid_t>
void parent_slots(const cost_rows_t<vid_t, eid_t>& rows, const vid_t* parents,
                  const tree_order_t<vid_t>& tree, int64_t q, std::vector<eid_t>& slot_of,
                  eid_t* slot, vid_t* owner) {
  const auto& out = rows.out;
  const vid_t p = tree.order[q];
  const int64_t first = tree.first[q], last = tree.first[q + 1];
  if (first == last) return;  // most vertices are leaves: leave their rows unread
  const eid_t row_first = out.begin(p), row_last = out.end(p);
  if (rows.sorted) {
    const vid_t* at = out.col + row_first;
    const vid_t* const end = out.col + row_last;
    for (int64_t i = first; i < last; ++i) {
      const vid_t w = tree.order[i];
      // Galloping from the last match: a hub's children lie close together in its row, so the
      // search reads lines next to the ones the last search read.
      size_t step = 1;
      while (static_cast<size_t>(end - at) > step && at[step] < w) step *= 2;
      at = std::lower_bound(at + step / 2, at + std::min(step + 1, static_cast<size_t>(end - at)),
                            w);
      const bool found = at != end && *at == w;
      slot[i] = found ? static_cast<eid_t>(at - out.col) : eid_t{-1};
      owner[i] = p;
    }
    return;
  }
  if (static_cast<size_t>(last - first) <= k_scan_children_separately) {
    for (int64_t i = first; i < last; ++i) {
      slot[i] = rows.first_slot(p, tree.order[i]);
      owner[i] = p;
    }
    return;
  }
  for (int64_t i = first; i < last; ++i) slot_of[tree.order[i]] = -2;  // wanted, not found yet
  for (eid_t j = row_first; j < row_last; ++j) {
    const vid_t w = out.neighbour(j);
    if (parents[w] == p && slot_of[w] == -2) slot_of[w] = j;
  }
  for (int64_t i = first; i < last; ++i) {
    const vid_t w = tree.order[i];
    slot[i] = slot_of[w] == -2 ? eid_t{-1} : slot_of[w];
    slot_of[w] = -1;
    owner[i] = p;
  }
}

/// Prefetches the row offsets of the parent k_cost_prefetch positions after q (of those before
/// `b`), and the start of the row of the one half as far, where its first search begins; leaves
/// have no row to read.
template <class vid_t, class eid_t>
void prefetch_row(const cost_rows_t<vid_t, eid_t>& rows, const tree_order_t<vid_t>& tree, int64_t q,
                  int64_t b) {
  const auto& out = rows.out;
  auto has_children = [&](int64_t r) { return tree.first[r] != tree.first[r + 1]; };
  const int64_t far = q + static_cast<int64_t>(k_cost_prefetch);
  if (far < b && has_children(far)) {
    sssp::detail::prefetch(out.row_begin + tree.order[far]);
    sssp::detail::prefetch(out.row_end + tree.order[far]);
  }
  const int64_t near = q + static_cast<int64_t>(k_cost_prefetch / 2);
  if (near < b && has_children(near)) sssp::detail::prefetch(out.col + out.begin(tree.order[near]));
}

/// The costs of the children at positions [c, d) from their parents' (already final).
template <class vid_t, class eid_t>
void child_costs(const cost_rows_t<vid_t, eid_t>& rows, const tree_order_t<vid_t>& tree,
                 const eid_t* slot, const vid_t* owner, int64_t c, int64_t d, int64_t* costs) {
  const int k = rows.k;
  const int stride = rows.out.num_weights;
  for (int64_t i = c; i < d; ++i) {
    if (i + static_cast<int64_t>(k_cost_prefetch) < d) {
      const int64_t ahead = i + static_cast<int64_t>(k_cost_prefetch);
      if (slot[ahead] >= 0) {
        sssp::detail::prefetch(rows.out.weights + static_cast<int64_t>(slot[ahead]) * stride);
      }
      sssp::detail::prefetch(costs + static_cast<int64_t>(tree.order[ahead]) * k);
    }
    costs_through(rows.out, slot[i], k, costs + static_cast<int64_t>(owner[i]) * k,
                  costs + static_cast<int64_t>(tree.order[i]) * k);
  }
}

/// A vertex with its MOSP distance, as distance_order() sorts it.
template <class vid_t>
struct ranked_vertex_t {
  int64_t distance;
  vid_t vertex;
};

/// The vertices that take costs from a parent (reached, not the source, a parent in [0, n) other
/// than itself) ordered by MOSP distance, and where each band of distances `band` wide starts
/// in that order. A parent lies at least `band` below its child (every combined weight is at
/// least L), so the vertices of one band never depend on each other. Built on `threads`: the
/// listed vertices shared out, then radix-sorted (core/radix_sort.hpp) by distance.
template <class vid_t>
struct distance_order_t {
  std::vector<vid_t> order;
  std::vector<int64_t> band_start;  ///< Ascending, the last entry order.size().

  distance_order_t(const vid_t* parents, const int64_t* distances, int64_t n, vid_t source,
                   int64_t band, int threads) {
    auto listed = [&](int64_t v) {
      const vid_t p = parents[v];
      return v != source && p >= 0 && p < n && p != v && distances[v] < sssp::k_infinite_distance;
    };
    // Left uninitialised (new[] of a trivial type): only the listed part is ever written.
    const size_t room = static_cast<size_t>(std::max<int64_t>(n, 1));
    std::unique_ptr<ranked_vertex_t<vid_t>[]> a(new ranked_vertex_t<vid_t>[room]);
    std::unique_ptr<ranked_vertex_t<vid_t>[]> b(new ranked_vertex_t<vid_t>[room]);
    std::vector<int64_t> share_largest(static_cast<size_t>(std::max(1, threads)), 0);
    const int64_t count = scan_shares(
        n, threads,
        [&](int64_t lo, int64_t hi) {
          int64_t c = 0;
          for (int64_t v = lo; v < hi; ++v) c += listed(v) ? 1 : 0;
          return c;
        },
        [&](int64_t lo, int64_t hi, int64_t at) {
          int64_t largest = 0;
          for (int64_t v = lo; v < hi; ++v) {
            if (!listed(v)) continue;
            a[at++] = {distances[v], static_cast<vid_t>(v)};
            largest = std::max(largest, distances[v]);
          }
          share_largest[static_cast<size_t>(thread_share(n).thread)] = largest;
        });
    int64_t largest = 0;
    for (const int64_t x : share_largest) largest = std::max(largest, x);
    const ranked_vertex_t<vid_t>* sorted = radix_sort_by_key(
        a.get(), b.get(), count, key_bits_below(largest + 1),
        [](const ranked_vertex_t<vid_t>& r) { return r.distance; }, threads);
    sssp::detail::resize_big(order, static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
      order[i] = sorted[i].vertex;
      if (i == 0 || sorted[i].distance >= sorted[band_start.back()].distance + band) {
        band_start.push_back(i);
      }
    }
    band_start.push_back(count);
  }
};

/// How far ahead the distance-order passes prefetch.
inline constexpr int64_t k_order_prefetch = 16;

/// The slot of order[i]'s parent edge in its own in-row (rows.unique_in), or -1, for i in
/// [first, last).
template <class vid_t, class eid_t>
void in_row_slots(const adjacency_view_t<vid_t, eid_t>& in, const vid_t* parents,
                  const std::vector<vid_t>& order, int64_t first, int64_t last, eid_t* slot) {
  constexpr int64_t ahead = k_order_prefetch;
  for (int64_t i = first; i < last; ++i) {
    if (i + ahead < last) {
      const vid_t w = order[i + ahead];
      sssp::detail::prefetch(parents + w);
      sssp::detail::prefetch(in.row_begin + w);
      sssp::detail::prefetch(in.row_end + w);
    }
    if (i + ahead / 2 < last) {  // the middle of the row, where its search begins
      const vid_t w = order[i + ahead / 2];
      const eid_t b = in.begin(w), e = in.end(w);
      sssp::detail::prefetch(in.col + b + (e - b) / 2);
    }
    const vid_t v = order[i];
    slot[i] = first_slot_in_sorted_row(in, v, parents[v]);
  }
}

/// The costs of order[i] for i in [first, last) from their parents' (already final), the
/// weights from the in-row slots.
template <class vid_t, class eid_t>
void costs_from_in_slots(const adjacency_view_t<vid_t, eid_t>& in, int k, const vid_t* parents,
                         const std::vector<vid_t>& order, const eid_t* slot, int64_t first,
                         int64_t last, int64_t* costs) {
  constexpr int64_t ahead = k_order_prefetch;
  const int stride = in.num_weights;
  for (int64_t i = first; i < last; ++i) {
    if (i + ahead < last) {
      const vid_t w = order[i + ahead];
      if (slot[i + ahead] >= 0) {
        sssp::detail::prefetch(in.weights + static_cast<int64_t>(slot[i + ahead]) * stride);
      }
      sssp::detail::prefetch(costs + static_cast<int64_t>(parents[w]) * k);
      sssp::detail::prefetch(costs + static_cast<int64_t>(w) * k);
    }
    const vid_t v = order[i];
    costs_through(in, slot[i], k, costs + static_cast<int64_t>(parents[v]) * k,
                  costs + static_cast<int64_t>(v) * k);
  }
}

/// compute_path_costs() with the MOSP distances and rows.unique_in: two passes over the vertices
/// in distance order (distance_order_t), the in-row slots and then the costs, each iteration
/// independent of its neighbours so that their misses overlap. With `threads` > 1 the slots are
/// shared out whole, the costs band by band: a band of at least 4096 vertices on the team, a run
/// of narrower ones by one thread (a team per band would cost a barrier each).
template <class vid_t, class eid_t>
void costs_in_distance_order(const cost_rows_t<vid_t, eid_t>& rows, const vid_t* parents,
                             const int64_t* distances, int64_t band, int64_t* costs, vid_t source,
                             int threads) {
  const adjacency_view_t<vid_t, eid_t>& in = *rows.unique_in;
  const int64_t n = rows.out.num_vertices;
  const distance_order_t<vid_t> ranked(parents, distances, n, source, band, threads);
  const std::vector<vid_t>& order = ranked.order;
  const int64_t size = static_cast<int64_t>(order.size());
  std::unique_ptr<eid_t[]> slot(new eid_t[static_cast<size_t>(std::max<int64_t>(size, 1))]);
  constexpr int64_t k_wide_band = 4096;
  constexpr int64_t k_chunk = 4096;
  const bool parallel = threads > 1 && size >= k_wide_band;
  const std::vector<int64_t>& starts = ranked.band_start;
  const int64_t bands = static_cast<int64_t>(starts.size()) - 1;
#pragma omp parallel num_threads(threads) if (parallel)
  {
#pragma omp for schedule(dynamic, 1)
    for (int64_t from = 0; from < size; from += k_chunk) {
      in_row_slots(in, parents, order, from, std::min(size, from + k_chunk), slot.get());
    }
    for (int64_t b = 0; b < bands;) {
      if (starts[b + 1] - starts[b] >= k_wide_band) {
        const int64_t first = starts[b], last = starts[b + 1];
#pragma omp for schedule(dynamic, 1)
        for (int64_t from = first; from < last; from += k_chunk) {
          costs_from_in_slots(in, rows.k, parents, order, slot.get(), from,
                              std::min(last, from + k_chunk), costs);
        }
        ++b;
        continue;
      }
      int64_t e = b;
      while (e < bands && starts[e + 1] - starts[e] < k_wide_band) ++e;
#pragma omp single
      costs_from_in_slots(in, rows.k, parents, order, slot.get(), starts[b], starts[e], costs);
      b = e;
    }
  }
}

/// Every vertex's costs from scratch, level by level down the tree from the source
/// (tree_order_t). Each level takes two passes whose iterations are independent, the parent-edge
/// slots and then the costs, so that their random reads overlap (with prefetching in the second;
/// the first reads each parent's row once for all its children), where one pass per parent puts
/// the search, the weights and the costs in a chain of dependent cache misses per vertex. With
/// `threads` > 1 both passes of a wide level are shared out: children are written by one thread
/// each and read only costs of the level before.
///
/// Given the MOSP `distances` (and `band`, the preference scale L, below every combined weight)
/// and rows with unique_in, the costs come from costs_in_distance_order() instead; the answer is
/// the same.
template <class vid_t, class eid_t>
void compute_path_costs(const cost_rows_t<vid_t, eid_t>& rows, const vid_t* parents, vid_t source,
                        std::vector<int64_t>& costs, int threads = 1,
                        const int64_t* distances = nullptr, int64_t band = 1) {
  const int64_t n = rows.out.num_vertices;
  const int k = rows.k;
  sssp::detail::assign_big(costs, static_cast<size_t>(n * k), sssp::k_infinite_distance);
  for (int i = 0; i < k; ++i) costs[static_cast<int64_t>(source) * k + i] = 0;
  if (distances != nullptr && rows.unique_in) {
    costs_in_distance_order(rows, parents, distances, band, costs.data(), source, threads);
    return;
  }
  const tree_order_t<vid_t> tree(parents, n, source, threads);
  const int64_t size = static_cast<int64_t>(tree.order.size());
  std::vector<eid_t> slot;
  std::vector<vid_t> owner;
  sssp::detail::resize_big(slot, static_cast<size_t>(size));
  sssp::detail::resize_big(owner, static_cast<size_t>(size));
  std::vector<eid_t> slot_of;
  if (!rows.sorted) sssp::detail::assign_big(slot_of, static_cast<size_t>(n), eid_t{-1});
  for (int64_t a = 0, b = 1; a < b;) {
    const int64_t c = tree.first[a], d = tree.first[b];
    // Below a few thousand children a team costs more than it saves.
    const bool parallel = threads > 1 && d - c >= 4096;
#pragma omp parallel num_threads(threads) if (parallel)
    {
#pragma omp for schedule(dynamic, 64)
      for (int64_t q = a; q < b; ++q) {
        prefetch_row(rows, tree, q, b);
        parent_slots(rows, parents, tree, q, slot_of, slot.data(), owner.data());
      }
      const int64_t chunk = 4096;
#pragma omp for schedule(dynamic, 1)
      for (int64_t from = c; from < d; from += chunk) {
        child_costs(rows, tree, slot.data(), owner.data(), from, std::min(d, from + chunk),
                    costs.data());
      }
    }
    a = c;
    b = d;
  }
}

/// Recomputes the costs below the vertices in `roots` (those whose MOSP parent changed, or whose
/// parent edge's weights may have). Children are read from the combined graph's out-rows
/// (`tree_out`: every MOSP tree edge is a combined edge); rows are taken in order of MOSP
/// distance, so a parent's costs are final before its children read them. Vertices that lost
/// their MOSP path get infinite costs (their old subtree lost it too, so they are all roots).
/// Returns the parents whose children were visited (the work done).
template <class vid_t, class eid_t, class tree_eid_t>
int64_t repair_path_costs(const cost_rows_t<vid_t, eid_t>& rows,
                          const adjacency_view_t<vid_t, tree_eid_t>& tree_out, const vid_t* parents,
                          const int64_t* distances, vid_t source, const std::vector<vid_t>& roots,
                          std::vector<int64_t>& costs) {
  const int64_t n = rows.out.num_vertices;
  const int k = rows.k;
  // 1: a root whose own costs may have changed; 2: costs changed, so all children follow.
  std::vector<uint8_t> dirty(static_cast<size_t>(n), 0), queued(static_cast<size_t>(n), 0);
  std::vector<eid_t> slot_of(static_cast<size_t>(n), -1);
  using entry_t = std::pair<int64_t, vid_t>;  // (MOSP distance, parent)
  std::priority_queue<entry_t, std::vector<entry_t>, std::greater<>> parents_due;
  auto schedule = [&](vid_t p) {
    if (queued[p]) return;
    queued[p] = 1;
    parents_due.push({distances[p], p});
  };
  for (const vid_t v : roots) {
    int64_t* c = costs.data() + static_cast<int64_t>(v) * k;
    if (v == source) {
      std::fill(c, c + k, 0);
    } else if (parents[v] < 0) {
      std::fill(c, c + k, sssp::k_infinite_distance);
    } else {
      dirty[v] = std::max<uint8_t>(dirty[v], 1);
      schedule(parents[v]);
    }
  }
  int64_t visited = 0;
  std::vector<vid_t> kids;
  while (!parents_due.empty()) {
    const vid_t p = parents_due.top().second;
    parents_due.pop();
    ++visited;
    kids.clear();
    for (tree_eid_t j = tree_out.begin(p); j < tree_out.end(p); ++j) {
      const vid_t w = tree_out.neighbour(j);
      if (parents[w] == p && (dirty[p] == 2 || dirty[w] != 0)) kids.push_back(w);
    }
    costs_of_children(rows, p, std::span<const vid_t>(kids), slot_of, costs.data(), [&](vid_t w) {
      dirty[w] = 2;
      schedule(w);
    });
  }
  return visited;
}

}  // namespace dyng::mosp::detail
