// The edge-list and Matrix Market readers (spec section 7). Both read the file in blocks on
// several threads (text_blocks.hpp) and report the first malformed token as a
// file_format_error with its 1-based line and column.
#pragma once

#include <climits>
#include <cstdint>
#include <optional>
#include <string>

#include "dyng/io/edge_table.hpp"
#include "dyng/io/text_blocks.hpp"

namespace dyng::io {

/// Options of read_edge_list(): lines `src dst [w1..wK] [timestamp]`.
/// The largest id - index_base of ids="as_is": the vertex count, one more, must fit int64.
inline constexpr uint64_t k_max_as_is_offset = uint64_t{INT64_MAX} - 1;
/// The same for a caller that keeps int32 ids.
inline constexpr uint64_t k_max_as_is_offset_int32 = uint64_t{INT32_MAX} - 1;

struct edge_list_options_t {
  int num_weights = 0;
  /// Renumber ids ascending (external_ids); otherwise ids are id - index_base.
  bool compact = true;
  int64_t index_base = 0;
  bool symmetrize = false;
  bool drop_self_loops = true;
  /// Merge repeated (src, dst), the last weight winning; otherwise keep all, with timestamps.
  bool merge_duplicates = true;
  /// ids="as_is": the largest id - index_base the caller's id type numbers (one of the
  /// k_max_as_is_offset constants); a larger id is a fault at its place in the file.
  uint64_t max_as_is_offset = k_max_as_is_offset;
  /// Keep only the edges whose source (id - index_base) lies here: every line is still read and
  /// checked, num_vertices is still the whole file's, and the edges kept are exactly those of
  /// the full read whose source lies in the range. Needs compact = false (a compact id depends
  /// on every id of the file).
  source_range_t sources;
  scan_options_t scan;
};

/// Reads an edge list; a file starting with a %%MatrixMarket banner is read as Matrix Market
/// (the file's 1-based ids as an edge list's ids, values checked but not read, num_weights
/// must be 0). Edges come out sorted by (src, dst).
edge_table_t read_edge_list(const std::string& path, const edge_list_options_t& options);

/// Whether ids="as_is" can number vertex `id` as id - index_base: at or above the base, and
/// with the vertex count fitting the ids (the difference taken exactly, in uint64).
inline bool as_is_id_fits(int64_t id, int64_t index_base,
                          uint64_t max_offset = k_max_as_is_offset) {
  return id >= index_base &&
         static_cast<uint64_t>(id) - static_cast<uint64_t>(index_base) <= max_offset;
}

/// What is wrong with an id that as_is_id_fits() refuses, and what to do.
std::string as_is_id_problem(int64_t id, int64_t index_base,
                             uint64_t max_offset = k_max_as_is_offset);

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
  /// Keep only the edges whose (0-based) source lies here, as read_edge_list's `sources` does;
  /// each direction of a mirrored entry is kept by its own source's range. Not with random
  /// weights, which are drawn in the order of the whole file's edges.
  source_range_t sources;
  scan_options_t scan;
};

/// Reads a coordinate Matrix Market file (1-based ids; a symmetric, skew-symmetric or hermitian
/// matrix gives both directions, each mirror right after its entry, a skew-symmetric integer
/// mirror with its value negated).
edge_table_t read_matrix_market(const std::string& path, const matrix_market_options_t& options);

/// What the banner and size line of a Matrix Market file say.
struct mm_header_t {
  enum class field_t { pattern, integer, real, complex } field = field_t::pattern;
  enum class symmetry_t { general, symmetric, skew_symmetric, hermitian };
  symmetry_t symmetry = symmetry_t::general;
  int64_t num_vertices = 0;
  int64_t entries = 0;
  /// An entry off the diagonal stands for two edges: every symmetry but general.
  bool mirrored() const { return symmetry != symmetry_t::general; }
};

/// What scan_matrix_market() does with the entries' values (each is checked in every mode):
/// skip them, read them as one int32 weight (refusing any matrix but 'integer' at line 1), or
/// read them if the matrix is 'integer' (refusing 'real' and 'complex').
enum class mm_values_t { ignore, required, if_integer };

/// Which entries scan_matrix_market() writes as edges (every entry is read and checked).
struct mm_keep_t {
  /// Leave out entries (v, v) while scanning.
  bool drop_self_loops = false;
  /// Write an edge only when its 0-based source lies here (an entry and its mirror apart).
  source_range_t sources;
  /// Or its target (a caller that mirrors the edges afterwards).
  bool either_end = false;
};

/// The entries of a Matrix Market file as 0-based edges (mirrors included), before any clean-up
/// but `keep`'s. With `as_is_index_base` (read_edge_list's ids="as_is"), an id that
/// as_is_id_fits() refuses is a fault at its place. The table's id_lo and id_hi bound the ids of
/// every entry `keep` does not drop as a self-loop, written or not.
edge_table_t scan_matrix_market(const std::string& path, const char* function,
                                const scan_options_t& scan, mm_values_t values, mm_header_t& header,
                                std::optional<int64_t> as_is_index_base = std::nullopt,
                                const mm_keep_t& keep = {});

/// True when the file starts with the "%%MatrixMarket" banner.
bool starts_with_matrix_market_banner(const std::string& path, const char* function);

}  // namespace dyng::io
