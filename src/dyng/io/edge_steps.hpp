// The steps of finish_edges() that do real work on big tables, each in its own file, declared
// here so that the tests can run them alone.
#pragma once

#include "dyng/io/edge_table.hpp"

namespace dyng::io {

/// Renumbers the ids 0..n-1 in ascending order of the file's ids: sets external_ids and
/// num_vertices, and leaves the table with 32-bit ids (id_compaction.cpp).
void compact_ids(edge_table_t& table, int threads);

/// Sorts the edges stably by (src, dst); with `merge`, keeps one edge per (src, dst), the last
/// one read. Kept duplicates are ordered by timestamp, then by position (edge_sort.cpp).
void sort_edges(edge_table_t& table, bool merge, int threads);

}  // namespace dyng::io
