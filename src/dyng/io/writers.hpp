// The text writers of spec section 7. Every one writes through atomic_file, so a target gets
// its whole new contents or keeps its old ones, written through symbolic links and keeping its
// mode, owner and hard links (atomic_file.hpp); missing parent folders are made.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace dyng::io {

/// A read-only integer column given as int32 or int64 (the caller's array, not copied).
struct int_column_t {
  const int32_t* narrow = nullptr;
  const int64_t* wide = nullptr;
  int64_t size = 0;
  int64_t operator[](int64_t i) const { return narrow != nullptr ? narrow[i] : wide[i]; }
};

/// `src dst w1..wK` per edge, single spaces; weights edge-major, K = weights.size() / m.
void write_edge_list(const std::string& path, int_column_t src, int_column_t dst,
                     std::span<const int32_t> weights, int num_weights);

/// `%%MatrixMarket matrix coordinate integer general` (pattern without weights), `n n m`, then
/// 1-based `i j [w]` with w the weight in column `weight_column`.
void write_matrix_market(const std::string& path, int64_t num_vertices, int_column_t src,
                         int_column_t dst, std::span<const int32_t> weights, int num_weights,
                         int weight_column);

/// `<prefix>RowPtr.txt`, `<prefix>ColInd.txt` (one number per line) and `<prefix>Values.txt`
/// (K weights per line); the three files are put in place only after all were written.
void write_csr_triplet(const std::string& prefix, int_column_t row_ptr, int_column_t col_ind,
                       std::span<const int32_t> weights, int num_weights);

/// insert.txt `u v w1..wK`, delete.txt `u v`, put in place together.
void write_legacy_batch(const std::string& insert_path, const std::string& delete_path,
                        int_column_t ins_src, int_column_t ins_dst,
                        std::span<const int32_t> ins_weights, int num_weights, int_column_t del_src,
                        int_column_t del_dst);

/// One batch of a .dgt file.
struct dgt_batch_t {
  std::vector<int64_t> ins_src, ins_dst, del_src, del_dst;
  std::vector<int32_t> ins_weights;
  int num_weights = 0;
};

/// `%dgt 1`, then per batch `%batch <i>`, its deletions `-e u v`, its insertions `+e u v w..`.
void write_batches(const std::string& path, const std::vector<dgt_batch_t>& batches);

/// `v value` per row, with values >= `inf` written as INF (inf <= 0: never).
void write_vertex_values(const std::string& path, const char* function, int_column_t values,
                         int64_t inf);

/// `v c1 .. cK` per vertex of an (n, K) row-major int64 matrix, values >= inf written as INF.
void write_path_costs(const std::string& path, std::span<const int64_t> costs, int num_columns,
                      int64_t inf);

/// Any bytes, atomically (the histogram CSV, the command line's text batches and caches).
void write_text(const std::string& path, const char* function, const std::string& text);

}  // namespace dyng::io
