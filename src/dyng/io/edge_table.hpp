// The edges a reader produces, and the clean-up every edge reader shares (edge_finish.cpp):
// self-loop removal, compact renumbering, symmetrization, sorting and duplicate merging.
//
// The columns are zeroed_arrays (core/zeroed_array.hpp): growing one writes nothing and moves
// no bytes, so a reader sizes them for a block of lines and its threads write their rows
// straight in, each touching its own fresh pages. First writing a fresh page is a good part of a
// read, so the reader keeps its peak memory low: ids in 32 bits whenever they fit, and 4 KiB
// pages (a fresh huge page costs more per byte unless another process has just freed some, and a
// read usually starts cold; bench/README.md, `python -m bench io`).
#pragma once

#include <climits>
#include <cstdint>
#include <vector>

#include "dyng/core/zeroed_array.hpp"
#include "dyng/io/source_range.hpp"

namespace dyng::io {

/// One column of a table: elements that a reader writes without zero-filling them first.
template <class T>
using column_t = zeroed_array<T>;

/// Edges as read from a file: `num_weights` int32 weights per edge (edge-major), and with
/// `timed` one int64 timestamp per edge (none otherwise). Vertex ids are uint32 (`src32`,
/// `dst32`) while every id is in [0, 2^32), int64 (`src64`, `dst64`) once one is not (`wide`);
/// the other pair is empty. with_ids() hands whichever pair is in use to code written once for
/// both.
struct edge_table_t {
  int64_t num_vertices = 0;
  int num_weights = 0;
  bool wide = false;
  bool timed = false;
  column_t<uint32_t> src32, dst32;
  column_t<int64_t> src64, dst64;
  column_t<int32_t> weights;
  column_t<int64_t> timestamps;
  /// With id_bounds_known, every id is in [id_lo, id_hi] (a reader that saw them all on the
  /// way says so, and compact_ids() then needs no pass to find them).
  bool id_bounds_known = false;
  int64_t id_lo = INT64_MAX;
  int64_t id_hi = INT64_MIN;
  /// compact ids: external_ids[i] is the file's id of vertex i (ascending); empty otherwise.
  std::vector<int64_t> external_ids;
  bool matrix_market = false;
  bool symmetric = false;

  int64_t size() const { return static_cast<int64_t>(wide ? src64.size() : src32.size()); }

  /// f(src, dst) on the id columns in use.
  template <class fn>
  decltype(auto) with_ids(fn&& f) {
    return wide ? f(src64, dst64) : f(src32, dst32);
  }
  template <class fn>
  decltype(auto) with_ids(fn&& f) const {
    return wide ? f(src64, dst64) : f(src32, dst32);
  }

  /// Edge e's ids, whatever the width (tests and small callers).
  int64_t src_at(int64_t e) const { return wide ? src64[e] : src32[e]; }
  int64_t dst_at(int64_t e) const { return wide ? dst64[e] : dst32[e]; }

  /// Room for exactly `rows` edges in every column in use (new rows unwritten: zero).
  void resize(int64_t rows);
  /// Moves rows [from, from + count) down to `to` (to <= from) in every column in use.
  void move_rows(int64_t from, int64_t to, int64_t count);
  /// Switches to int64 ids, keeping every row (a no-op when already wide).
  void widen();
};

/// True when an id fits the table's 32-bit columns.
inline bool fits_narrow(int64_t id) { return id >= 0 && id <= int64_t{0xffffffff}; }

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
  /// Then keep the edges whose source lies here (a filtered reader kept the lines with an
  /// endpoint in it, as the mirrors of the others start there).
  source_range_t sources;
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
