// The per-rank work of dyng.distributed's sssp (python/dyng/distributed/_sssp_rounds.py): a
// Dijkstra search over the vertices one rank owns, on that rank's shard (a graph holding the
// out-edges of its vertices, global ids), and the repair's cut walk and seeding, all on the
// shard's own rows (no copy of its CSR).
//
// The search runs a monotone queue (the radix heap of radix_search(), or Dial's buckets when the
// seeds lie within one ring of 0, as a compute's do) from seeds at arbitrary distances, settles
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

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/detail/dial_queue.hpp"
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

/// The first active position at or after `from` (tree.count when none). A small repair's active
/// set is a few vertices of the rank's range: memchr skips the inactive stretches a word at a
/// time, where a test per position would make every search cost O(range).
inline int64_t next_active(const owned_tree_t& tree, int64_t from) {
  if (from >= tree.count) return tree.count;
  static_assert(sizeof(bool) == 1, "the active set is read as bytes (true is 1)");
  const void* hit = std::memchr(tree.active + from, 1, static_cast<size_t>(tree.count - from));
  return hit == nullptr ? tree.count : static_cast<const bool*>(hit) - tree.active;
}

/// Relaxes the row of owned vertex u, settled at distance d, pushing improved owned vertices
/// onto `queue` (a radix_heap_t or a dial_queue_t).
template <class rows_t, class vid_t, class queue_t>
void relax_owned_row(const rows_t& rows, vid_t u, int64_t d, owned_tree_t& tree, queue_t& queue,
                     owned_search_out_t& out) {
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
      queue.push(v, candidate);
    } else if (candidate == tree.dist[at] && u < tree.parent[at]) {
      tree.parent[at] = u;
    }
  }
  out.relaxations += row.size;
}

/// The vertex of a queue entry: a radix heap's (key, vertex) or a Dial bucket's vertex.
template <class entry_t>
int64_t entry_vertex(const entry_t& e) {
  if constexpr (std::is_integral_v<entry_t>) {
    return e;
  } else {
    return e.vertex;
  }
}

/// Settles the queued owned vertices below `bound` (advance, bucket and pop are the queue's
/// calls), then puts the live entries left at or past it back into tree.active.
template <class rows_t, class vid_t, class queue_t, class bucket_fn, class pop_fn>
void settle_owned(const rows_t& rows, owned_tree_t& tree, queue_t& queue, int64_t bound,
                  owned_search_out_t& out, bucket_fn&& bucket_of, pop_fn&& pop) {
  while (!queue.empty()) {
    const int64_t d = queue.advance();
    if (d >= bound) break;
    auto& bucket = bucket_of(queue);
    const size_t size = bucket.size();  // pushes while reading land in other buckets
    for (size_t i = 0; i < size; ++i) {
      if (i + k_prefetch_entries < size) {
        const auto x = static_cast<vid_t>(entry_vertex(bucket[i + k_prefetch_entries]));
        rows.prefetch_offsets(x);
        if (tree.dist[x - tree.first] == d) rows.prefetch_row(x);
      }
      const auto u = static_cast<vid_t>(entry_vertex(bucket[i]));
      if (tree.dist[u - tree.first] != d) continue;  // stale: u improved since it was queued
      tree.active[u - tree.first] = false;
      if (u >= tree.rows) continue;
      relax_owned_row(rows, u, d, tree, queue, out);
    }
    pop(queue);
  }
  while (!queue.empty()) {  // what is left lies at or past the bound, for a later round
    const int64_t d = queue.advance();
    for (const auto& e : bucket_of(queue)) {
      const int64_t at = entry_vertex(e) - tree.first;
      if (tree.dist[at] == d) tree.active[at] = true;  // a stale entry's vertex was settled lower
    }
    pop(queue);
  }
}

/// Dijkstra over the owned vertices from the active ones below `bound` (at their distances in
/// tree.dist), settling those below `bound` and recording parents (the file's comment says why
/// they are canonical); edges into other ranks' vertices become offers in `out`. Settled vertices
/// leave tree.active, and the owned vertices left queued at or past `bound` join it.
/// `max_length` (0: unknown) bounds the lengths of the rows: when it fits Dial's ring and every
/// seed lies within it of 0 (a compute's first search), Dial's queue serves, as in
/// dial_search(); otherwise the radix heap.
template <class rows_t, class vid_t>
void owned_search(const rows_t& rows, owned_tree_t& tree, int64_t bound, int64_t max_length,
                  owned_search_out_t& out) {
  std::vector<vid_t> seeds;
  int64_t farthest = 0;
  for (int64_t at = next_active(tree, 0); at < tree.count; at = next_active(tree, at + 1)) {
    if (tree.dist[at] < bound) {
      tree.active[at] = false;
      seeds.push_back(static_cast<vid_t>(tree.first + at));
      farthest = std::max(farthest, tree.dist[at]);
    }
  }
  if (max_length >= 1 && max_length <= k_dial_max_weight && farthest <= max_length) {
    dial_queue_t<vid_t> queue(max_length);
    for (const vid_t v : seeds) queue.push(v, tree.dist[v - tree.first]);
    settle_owned<rows_t, vid_t>(
        rows, tree, queue, bound, out, [](auto& q) -> auto& { return q.bucket(); },
        [](auto& q) { q.pop_bucket(); });
  } else {
    radix_heap_t<vid_t> heap;
    for (const vid_t v : seeds) heap.push(v, tree.dist[v - tree.first]);
    settle_owned<rows_t, vid_t>(
        rows, tree, heap, bound, out, [](auto& q) -> auto& { return q.minimum_bucket(); },
        [](auto& q) { q.pop_minimum_bucket(); });
  }
}

/// Takes the offers other ranks sent (owned target, distance, source): a target keeps the lowest
/// (distance, source) pair, and one whose distance fell becomes active. Applied one by one, in
/// any order, they leave the pair and the active flag the lowest pair of the lot would.
inline void take_offers(owned_tree_t& tree, std::span<const int64_t> targets,
                        std::span<const int64_t> distances, std::span<const int64_t> sources) {
  for (size_t i = 0; i < targets.size(); ++i) {
    const int64_t at = tree.position(targets[i]);
    if (at < 0) continue;  // not this rank's: the routing sent it elsewhere
    if (distances[i] < tree.dist[at]) {
      tree.dist[at] = distances[i];
      tree.parent[at] = sources[i];
      tree.active[at] = true;
    } else if (distances[i] == tree.dist[at] && sources[i] < tree.parent[at]) {
      tree.parent[at] = sources[i];
    }
  }
}

/// Children of cut vertices that other ranks own, for the rounds to send to their owners.
struct cut_offers_t {
  std::vector<int64_t> children;  ///< Targets of a cut vertex's out-edges on other ranks.
  std::vector<int64_t> parents;   ///< The cut vertex of each (the owner cuts the child when
                                  ///< this is its parent).
  std::vector<int64_t> cut;       ///< Positions this call cut, in the order it cut them (the
                                  ///< repair resets them without scanning the mask).
};

/// Cuts the subtrees below `roots` (positions) on this rank: a cut vertex's owned children (v
/// with parent[v] == u) are cut in turn, depth first, and every out-edge into another rank's
/// vertex is reported in `out`. Stops once `limit` vertices are cut by this call (the rounds
/// then know the budget is spent); returns how many were, their positions in out.cut.
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
    out.cut.push_back(at);
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

/// The shard's edges' lengths in one objective: their count, sum and largest, and the first
/// edge (in row order) holding the smallest, for the refusal of a length < 1.
struct shard_lengths_t {
  int64_t edges = 0;
  int64_t total = 0;
  int64_t max_length = 0;
  int64_t min_length = 0;
  int64_t min_src = -1;
  int64_t min_dst = -1;
};

/// One pass over the shard's rows, as scan_weights() folds them, with the sum.
template <class vid_t, class eid_t>
shard_lengths_t scan_shard_lengths(const adjacency_view_t<vid_t, eid_t>& out, weight_column_t w) {
  shard_lengths_t lengths;
  int32_t smallest = INT32_MAX, largest = 0;
  eid_t min_slot = -1;
  // Per-row fold over the column read as plain int32s when it is contiguous (K == 1), which
  // the compiler vectorises, as scan_weights() does.
  auto fold = [&](auto weight_at) {
    for (vid_t u = 0; u < out.num_vertices; ++u) {
      const eid_t begin = out.begin(u), end = out.end(u);
      int32_t row_min = INT32_MAX, row_max = 0;
      int64_t row_sum = 0;
      for (eid_t slot = begin; slot < end; ++slot) {
        const int32_t length = weight_at(slot);
        row_min = length < row_min ? length : row_min;
        row_max = length > row_max ? length : row_max;
        row_sum += length;
      }
      lengths.edges += end - begin;
      lengths.total += row_sum;
      largest = row_max > largest ? row_max : largest;
      if (row_min < smallest) {
        smallest = row_min;
        lengths.min_src = u;
        min_slot = begin;
        while (weight_at(min_slot) != row_min) ++min_slot;
      }
    }
  };
  if (w.stride == 1) {
    fold([base = w.base](eid_t slot) { return base[slot]; });
  } else {
    fold([w](eid_t slot) { return static_cast<int32_t>(w(slot)); });
  }
  lengths.max_length = largest;
  lengths.min_length = min_slot >= 0 ? smallest : 0;
  lengths.min_dst = min_slot >= 0 ? out.col[min_slot] : -1;
  return lengths;
}

/// Pushes the offer of the shard's edge u -> v of length `length` when u is an owned vertex
/// with a distance: what relaxing u's row would send v.
inline void offer_from(const owned_tree_t& tree, int64_t u, int64_t v, int64_t length,
                       owned_search_out_t& out) {
  const int64_t at = tree.position(u);
  if (at < 0 || tree.dist[at] >= k_infinite_distance) return;
  out.offer_targets.push_back(v);
  out.offer_distances.push_back(tree.dist[at] + length);
  out.offer_sources.push_back(u);
}

/// The offers of the shard's edges into `targets` (global ids, any rank's) from its owned
/// vertices with a distance, read from the in-rows of the targets (O(their in-edges on this
/// shard)): the repair pulls them for the cut vertices instead of relaxing the whole rows of
/// their in-neighbours, whose other targets kept their distances.
template <class vid_t, class eid_t>
void shard_offers_into(const adjacency_view_t<vid_t, eid_t>& in, int objective,
                       const owned_tree_t& tree, std::span<const int64_t> targets,
                       owned_search_out_t& out) {
  for (const int64_t v : targets) {
    if (v < 0 || v >= in.num_vertices) continue;
    const auto row = static_cast<vid_t>(v);
    for (eid_t slot = in.begin(row); slot < in.end(row); ++slot) {
      offer_from(tree, in.col[slot], v, in.weight(slot, objective), out);
    }
  }
}

/// shard_offers_into() for a shard kept without in-rows: one pass over the owned out-rows.
template <class vid_t, class eid_t>
void shard_offers_into_by_scan(const adjacency_view_t<vid_t, eid_t>& out_rows, int objective,
                               const owned_tree_t& tree, std::span<const int64_t> targets,
                               owned_search_out_t& out) {
  std::vector<char> wanted(static_cast<size_t>(out_rows.num_vertices), 0);
  for (const int64_t v : targets) {
    if (v >= 0 && v < out_rows.num_vertices) wanted[static_cast<size_t>(v)] = 1;
  }
  const int64_t last = std::min<int64_t>(tree.first + tree.count, out_rows.num_vertices);
  for (int64_t u = tree.first; u < last; ++u) {
    const auto row = static_cast<vid_t>(u);
    for (eid_t slot = out_rows.begin(row); slot < out_rows.end(row); ++slot) {
      const int64_t v = out_rows.col[slot];
      if (wanted[static_cast<size_t>(v)])
        offer_from(tree, u, v, out_rows.weight(slot, objective), out);
    }
  }
}

}  // namespace dyng::sssp::detail
