// Readers of the small formats of spec section 7 (CSR triplet, legacy batches, .dgt, distance
// and parent files), all on the shared block scanner and tokenizer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dyng/io/writers.hpp"

namespace dyng::io {

/// A CSR graph as read from a triplet: K weights per edge, edge-major.
struct csr_table_t {
  std::vector<int64_t> row_ptr;
  std::vector<int64_t> col_ind;
  std::vector<int32_t> weights;
  int num_weights = 0;
};

/// `<prefix>RowPtr.txt`, `ColInd.txt`, `Values.txt`; num_weights 0 takes K from Values line 1.
csr_table_t read_csr_triplet(const std::string& prefix, int num_weights);

/// One insertion file and one deletion file; ids must lie in [0, num_vertices) (num_vertices <
/// 0: [0, id_max]). mosp_lenient ignores extra numbers at the end of a line, as mosp did.
dgt_batch_t read_legacy_batch(const std::string& insert_path, const std::string& delete_path,
                              int num_weights, int64_t num_vertices, int64_t id_max,
                              bool mosp_lenient);

/// A .dgt file; num_weights < 0 takes K from the first insertion.
std::vector<dgt_batch_t> read_batches(const std::string& path, int num_weights,
                                      int64_t num_vertices);

/// `v value` lines listing each of n vertices once; INF reads as `inf` (inf <= 0: refused);
/// values must be >= `minimum` and < `below` (below <= 0: no upper bound).
std::vector<int64_t> read_vertex_values(const std::string& path, const char* function,
                                        int64_t num_vertices, int64_t inf, int64_t minimum,
                                        int64_t below);

}  // namespace dyng::io
