// The edges a reader produces, and the clean-up every edge reader shares (edge_finish.cpp):
// self-loop removal, compact renumbering, symmetrization, sorting and duplicate merging.
#pragma once

#include <cstdint>
#include <vector>

namespace dyng::io {

/// Edges as read from a file: int64 ids, `num_weights` int32 weights per edge (edge-major),
/// optional int64 timestamps (one per edge, or none).
struct edge_table_t {
  int64_t num_vertices = 0;
  int num_weights = 0;
  std::vector<int64_t> src;
  std::vector<int64_t> dst;
  std::vector<int32_t> weights;
  std::vector<int64_t> timestamps;
  /// compact ids: external_ids[i] is the file's id of vertex i (ascending); empty otherwise.
  std::vector<int64_t> external_ids;
  bool matrix_market = false;
  bool symmetric = false;

  int64_t size() const { return static_cast<int64_t>(src.size()); }
};

/// Below this many edges finish_edges() runs on one thread: a team's start-up costs more.
inline constexpr int64_t k_min_parallel_edges = int64_t{1} << 16;

/// What finish_edges() does, in this order.
struct finish_options_t {
  bool drop_self_loops = true;
  /// Renumber ids 0..n-1 in ascending order of the file's ids (sets external_ids and
  /// num_vertices); otherwise num_vertices is kept when >= 0 or becomes max id + 1.
  bool compact = false;
  /// Add (v, u) for every (u, v) with u != v.
  bool symmetrize = false;
  /// Stable sort by (src, dst).
  bool sort = false;
  /// After sorting, keep one edge per (src, dst): the last one read.
  bool merge_duplicates = false;
  int threads = 1;
};

/// Applies `options` to `table` in place.
void finish_edges(edge_table_t& table, const finish_options_t& options);

/// `count` values uniform in [lo, hi] from one mt19937 stream seeded with `seed`, in draw
/// order: the weights of mospPrep's mtx2csr and widen.
std::vector<int32_t> seeded_uniform(int64_t count, int32_t lo, int32_t hi, uint32_t seed);

/// Replaces the weights with `num_weights` per edge drawn in edge order from seeded_uniform():
/// the recipe of mospPrep mtx2csr.
void draw_random_weights(edge_table_t& table, int num_weights, int32_t lo, int32_t hi,
                         uint32_t seed);

}  // namespace dyng::io
