// The edge-list and Matrix Market readers (spec section 7). Both read the file in blocks on
// several threads (text_blocks.hpp) and report the first malformed token as a
// file_format_error with its 1-based line and column.
#pragma once

#include <cstdint>
#include <string>

#include "dyng/io/edge_table.hpp"
#include "dyng/io/text_blocks.hpp"

namespace dyng::io {

/// Options of read_edge_list(): lines `src dst [w1..wK] [timestamp]`.
struct edge_list_options_t {
  int num_weights = 0;
  /// Renumber ids ascending (external_ids); otherwise ids are id - index_base.
  bool compact = true;
  int64_t index_base = 0;
  bool symmetrize = false;
  bool drop_self_loops = true;
  /// Merge repeated (src, dst), the last weight winning; otherwise keep all, with timestamps.
  bool merge_duplicates = true;
  scan_options_t scan;
};

/// Reads an edge list; a file starting with a %%MatrixMarket banner is read as Matrix Market
/// (ids 1-based, values ignored, num_weights must be 0). Edges come out sorted by (src, dst).
edge_table_t read_edge_list(const std::string& path, const edge_list_options_t& options);

/// Where Matrix Market weights come from.
enum class mm_weights_t { automatic, none, from_file, random };

/// Options of read_matrix_market().
struct matrix_market_options_t {
  mm_weights_t weights = mm_weights_t::automatic;
  /// Weights per edge for mm_weights_t::random (from_file reads 1).
  int num_weights = 1;
  int32_t random_min = 1;
  int32_t random_max = 100;
  uint32_t random_seed = 12345;
  bool drop_self_loops = true;
  bool sort_and_dedupe = true;
  scan_options_t scan;
};

/// Reads a coordinate Matrix Market file (1-based ids; a symmetric matrix gives both directions,
/// each mirror right after its entry).
edge_table_t read_matrix_market(const std::string& path, const matrix_market_options_t& options);

/// What the banner and size line of a Matrix Market file say.
struct mm_header_t {
  enum class field_t { pattern, integer, real } field = field_t::pattern;
  bool symmetric = false;
  int64_t num_vertices = 0;
  int64_t entries = 0;
};

/// What scan_matrix_market() does with the entries' values: ignore them, read them as one
/// int32 weight (refusing a pattern or real matrix at line 1), or read them if the matrix is
/// 'integer' (refusing only 'real').
enum class mm_values_t { ignore, required, if_integer };

/// The entries of a Matrix Market file as 0-based edges (mirrors included), before any clean-up.
edge_table_t scan_matrix_market(const std::string& path, const char* function,
                                const scan_options_t& scan, mm_values_t values,
                                mm_header_t& header);

/// True when the file starts with the "%%MatrixMarket" banner.
bool starts_with_matrix_market_banner(const std::string& path, const char* function);

}  // namespace dyng::io
