// The per-rank work of dyng.distributed's sssp (python/dyng/distributed/_sssp_rounds.py): a
// Dijkstra search over the vertices one rank owns, on that rank's shard (a graph holding the
// out-edges of its vertices, global ids), and the repair's cut walk and seeding, all on the
// shard's own rows (no copy of its CSR).
//
// The search runs radix_search()'s monotone queue from seeds at arbitrary distances, settles
// owned vertices below a distance bound (the bucket of the distributed rounds; no bound in a
// world of one, where this one search is the whole compute) and, instead of relaxing an edge
// into a vertex another rank owns, reports it as an offer (target, candidate, source) for the
// rounds to send to the owner. Owned vertices still queued at or past the bound stay in the
// rounds' active set, for a later round.
//
// Parents are recorded during the search with dial_search()'s rule: an improvement takes the
// relaxing vertex, a tie keeps the lower id. Each owned vertex relaxes its row once per decrease
// of its distance, so every in-neighbour on this rank relaxes v at v's final distance (after its
// own last decrease), and the owner keeps the lowest (distance, source) pair of every offer from
// other ranks: the parent at the fixed point is the lowest-id in-neighbour on a shortest path,
// whichever rank it lives on, the one canonical_parents_sequential() derives.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/detail/dijkstra_sequential.hpp"
#include "dyng/sssp/detail/radix_heap.hpp"
#include "dyng/sssp/detail/search_rows.hpp"
#include "dyng/sssp/detail/sssp_common.hpp"

namespace dyng::sssp::detail {

/// The owned range [first, first + count) of one rank and its slice of the tree: dist and parent
/// have `count` entries, entry i being vertex first + i's.
struct owned_tree_t {
  int64_t first = 0;
  int64_t count = 0;
  int64_t* dist = nullptr;    ///< k_infinite_distance when unreached
  int64_t* parent = nullptr;  ///< -1 for the source and unreached vertices
  bool* active = nullptr;     ///< The rounds' active set: vertices whose row is still to relax
  int64_t rows = 0;  ///< Vertices the shard has rows for: a batch that grew the graph on another
                     ///< rank leaves this shard shorter, its new vertices without edges here

  /// Position of global id v, or -1 when another rank owns v.
  int64_t position(int64_t v) const {
    const auto at = static_cast<uint64_t>(v - first);
    return at < static_cast<uint64_t>(count) ? static_cast<int64_t>(at) : -1;
  }
};

/// What one owned search leaves for the rounds.
struct owned_search_out_t {
  std::vector<int64_t> offer_targets;    ///< Ghost targets of relaxed edges, global ids.
  std::vector<int64_t> offer_distances;  ///< Their candidate distances.
  std::vector<int64_t> offer_sources;    ///< The relaxing owned vertices, global ids.
  int64_t relaxations = 0;               ///< Out-edges scanned.
};

/// Relaxes the row of owned vertex u, settled at distance d.
template <class rows_t, class vid_t>
void relax_owned_row(const rows_t& rows, vid_t u, int64_t d, owned_tree_t& tree,
                     radix_heap_t<vid_t>& heap, owned_search_out_t& out) {
  const auto row = rows.row(u);
  for (int64_t i = 0; i < row.size; ++i) {
    if (i + k_prefetch_slots < row.size) {
      const int64_t ahead = tree.position(row.neighbour(i + k_prefetch_slots));
      if (ahead >= 0) prefetch(tree.dist + ahead);
    }
    const vid_t v = row.neighbour(i);
    const int64_t candidate = d + row.weight(i);
    const int64_t at = tree.position(v);
    if (at < 0) {
      out.offer_targets.push_back(v);
      out.offer_distances.push_back(candidate);
      out.offer_sources.push_back(u);
    } else if (candidate < tree.dist[at]) {
      tree.dist[at] = candidate;
      tree.parent[at] = u;
      heap.push(v, candidate);
    } else if (candidate == tree.dist[at] && u < tree.parent[at]) {
      tree.parent[at] = u;
    }
  }
  out.relaxations += row.size;
}

/// Dijkstra over the owned vertices from the active ones below `bound` (at their distances in
/// tree.dist), settling those below `bound` and recording parents (the file's comment says why
/// they are canonical); edges into other ranks' vertices become offers in `out`. Settled vertices
/// leave tree.active, and the owned vertices left queued at or past `bound` join it.
template <class rows_t, class vid_t>
void owned_search(const rows_t& rows, owned_tree_t& tree, int64_t bound, owned_search_out_t& out) {
  using entry_t = typename radix_heap_t<vid_t>::entry_t;
  radix_heap_t<vid_t> heap;
  for (int64_t at = 0; at < tree.count; ++at) {
    if (tree.active[at] && tree.dist[at] < bound) {
      tree.active[at] = false;
      heap.push(static_cast<vid_t>(tree.first + at), tree.dist[at]);
    }
  }
  while (!heap.empty()) {
    const int64_t d = heap.advance();
    if (d >= bound) break;
    std::vector<entry_t>& bucket = heap.minimum_bucket();
    const size_t size = bucket.size();  // pushes while reading land in other buckets
    for (size_t i = 0; i < size; ++i) {
      if (i + k_prefetch_entries < size) {
        const vid_t x = bucket[i + k_prefetch_entries].vertex;
        rows.prefetch_offsets(x);
        if (tree.dist[x - tree.first] == d) rows.prefetch_row(x);
      }
      const vid_t u = bucket[i].vertex;
      if (tree.dist[u - tree.first] != d) continue;  // stale: u improved since it was queued
      tree.active[u - tree.first] = false;
      if (u >= tree.rows) continue;
      relax_owned_row(rows, u, d, tree, heap, out);
    }
    heap.pop_minimum_bucket();
  }
  while (!heap.empty()) {  // what is left lies at or past the bound, for a later round
    const int64_t d = heap.advance();
    for (const entry_t& e : heap.minimum_bucket()) {
      const int64_t at = static_cast<int64_t>(e.vertex) - tree.first;
      if (tree.dist[at] == d) tree.active[at] = true;  // a stale entry's vertex was settled lower
    }
    heap.pop_minimum_bucket();
  }
}

/// Children of cut vertices that other ranks own, for the rounds to send to their owners.
struct cut_offers_t {
  std::vector<int64_t> children;  ///< Targets of a cut vertex's out-edges on other ranks.
  std::vector<int64_t> parents;   ///< The cut vertex of each (the owner cuts the child when
                                  ///< this is its parent).
};

/// Cuts the subtrees below `roots` (positions) on this rank: a cut vertex's owned children (v
/// with parent[v] == u) are cut in turn, depth first, and every out-edge into another rank's
/// vertex is reported in `out`. Stops once `limit` vertices are cut by this call (the rounds
/// then know the budget is spent); returns how many were.
template <class vid_t, class eid_t>
int64_t cut_owned(const adjacency_view_t<vid_t, eid_t>& rows, const owned_tree_t& tree, bool* cut,
                  std::span<const int64_t> roots, int64_t limit, cut_offers_t& out) {
  std::vector<int64_t> stack;
  int64_t count = 0;
  auto take = [&](int64_t at) {
    if (cut[at] || count >= limit) return;
    cut[at] = true;
    ++count;
    stack.push_back(at);
  };
  for (const int64_t at : roots) take(at);
  while (!stack.empty() && count < limit) {
    const int64_t u = tree.first + stack.back();
    stack.pop_back();
    if (u >= tree.rows) continue;
    const auto row = static_cast<vid_t>(u);
    for (eid_t slot = rows.begin(row); slot < rows.end(row); ++slot) {
      const vid_t v = rows.col[slot];
      const int64_t at = tree.position(v);
      if (at < 0) {
        out.children.push_back(v);
        out.parents.push_back(u);
      } else if (tree.parent[at] == u) {
        take(at);
      }
    }
  }
  return count;
}

/// The shard's edges' lengths in one objective: their count and sum, and the first edge (in row
/// order) holding the smallest length, for the refusal of a length < 1.
struct shard_lengths_t {
  int64_t edges = 0;
  int64_t total = 0;
  int64_t min_length = 0;
  int64_t min_src = -1;
  int64_t min_dst = -1;
};

template <class vid_t, class eid_t>
shard_lengths_t scan_shard_lengths(const adjacency_view_t<vid_t, eid_t>& out, weight_column_t w) {
  weight_range_t<vid_t, eid_t> range;
  scan_weights(out, w, vid_t{0}, out.num_vertices, range);
  shard_lengths_t lengths;
  for (vid_t u = 0; u < out.num_vertices; ++u) {
    for (eid_t slot = out.begin(u); slot < out.end(u); ++slot) lengths.total += w(slot);
    lengths.edges += out.degree(u);
  }
  if (range.min_slot >= 0) {
    lengths.min_length = range.min_weight;
    lengths.min_src = range.min_src;
    lengths.min_dst = out.col[range.min_slot];
  }
  return lengths;
}

/// The sources of the shard's edges into `targets` (global ids, any rank's), read from the
/// in-rows of the targets (O(their in-edges on this shard)); may repeat.
template <class vid_t, class eid_t>
std::vector<int64_t> shard_sources_into(const adjacency_view_t<vid_t, eid_t>& in,
                                        std::span<const int64_t> targets) {
  std::vector<int64_t> sources;
  for (const int64_t v : targets) {
    if (v < 0 || v >= in.num_vertices) continue;
    const auto row = static_cast<vid_t>(v);
    for (eid_t slot = in.begin(row); slot < in.end(row); ++slot) sources.push_back(in.col[slot]);
  }
  return sources;
}

/// shard_sources_into() for a shard kept without in-rows: one pass over its out-rows.
template <class vid_t, class eid_t>
std::vector<int64_t> shard_sources_into_by_scan(const adjacency_view_t<vid_t, eid_t>& out,
                                                std::span<const int64_t> targets) {
  std::vector<char> wanted(static_cast<size_t>(out.num_vertices), 0);
  for (const int64_t v : targets) {
    if (v >= 0 && v < out.num_vertices) wanted[static_cast<size_t>(v)] = 1;
  }
  std::vector<int64_t> sources;
  for (vid_t u = 0; u < out.num_vertices; ++u) {
    for (eid_t slot = out.begin(u); slot < out.end(u); ++slot) {
      if (wanted[static_cast<size_t>(out.col[slot])]) sources.push_back(u);
    }
  }
  return sources;
}

}  // namespace dyng::sssp::detail
