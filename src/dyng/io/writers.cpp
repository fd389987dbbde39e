// The writers: number formatting with std::to_chars into atomic_file's buffer; a format of
// several files writes them inside one write_group, so they are put in place together.
#include "dyng/io/writers.hpp"

#include "dyng/core/errors.hpp"
#include "dyng/io/atomic_file.hpp"
#include "dyng/io/write_group.hpp"

namespace dyng::io {
namespace {

void put_weights(atomic_file& f, std::span<const int32_t> w, int64_t e, int k) {
  for (int j = 0; j < k; ++j) {
    f.put(' ');
    f.put_int(w[static_cast<size_t>(e * k + j)]);
  }
}

void put_value(atomic_file& f, int64_t v, int64_t inf) {
  if (inf > 0 && v >= inf) f.put("INF");
  else f.put_int(v);
}

}  // namespace

void write_edge_list(const std::string& path, int_column_t src, int_column_t dst,
                     std::span<const int32_t> weights, int k) {
  atomic_file f(path, "write_edge_list");
  for (int64_t e = 0; e < src.size; ++e) {
    f.put_int(src[e]);
    f.put(' ');
    f.put_int(dst[e]);
    put_weights(f, weights, e, k);
    f.put('\n');
  }
  f.commit();
}

void write_matrix_market(const std::string& path, int64_t n, int_column_t src, int_column_t dst,
                         std::span<const int32_t> weights, int k, int column) {
  if (k > 0 && (column < 0 || column >= k))
    throw invalid_argument_error("write_matrix_market(): weight_column=" + std::to_string(column) +
                                 " is outside [0, " + std::to_string(k - 1) +
                                 "]; pick one of the edges' weight columns");
  atomic_file f(path, "write_matrix_market");
  f.put(k > 0 ? "%%MatrixMarket matrix coordinate integer general\n"
              : "%%MatrixMarket matrix coordinate pattern general\n");
  f.put_int(n);
  f.put(' ');
  f.put_int(n);
  f.put(' ');
  f.put_int(src.size);
  f.put('\n');
  for (int64_t e = 0; e < src.size; ++e) {
    f.put_int(src[e] + 1);
    f.put(' ');
    f.put_int(dst[e] + 1);
    if (k > 0) {
      f.put(' ');
      f.put_int(weights[static_cast<size_t>(e * k + column)]);
    }
    f.put('\n');
  }
  f.commit();
}

void write_csr_triplet(const std::string& prefix, int_column_t row_ptr, int_column_t col_ind,
                       std::span<const int32_t> weights, int k) {
  const char* function = "write_csr_triplet";
  write_group together;
  atomic_file rows(prefix + "RowPtr.txt", function);
  for (int64_t i = 0; i < row_ptr.size; ++i) {
    rows.put_int(row_ptr[i]);
    rows.put('\n');
  }
  rows.commit();
  atomic_file cols(prefix + "ColInd.txt", function);
  for (int64_t e = 0; e < col_ind.size; ++e) {
    cols.put_int(col_ind[e]);
    cols.put('\n');
  }
  cols.commit();
  atomic_file values(prefix + "Values.txt", function);
  for (int64_t e = 0; e < col_ind.size; ++e) {
    for (int j = 0; j < k; ++j) {
      if (j > 0) values.put(' ');
      values.put_int(weights[static_cast<size_t>(e * k + j)]);
    }
    values.put('\n');
  }
  values.commit();
  together.commit();
}

void write_legacy_batch(const std::string& insert_path, const std::string& delete_path,
                        int_column_t ins_src, int_column_t ins_dst,
                        std::span<const int32_t> ins_weights, int k, int_column_t del_src,
                        int_column_t del_dst) {
  write_group together;
  atomic_file ins(insert_path, "write_legacy_batch");
  for (int64_t e = 0; e < ins_src.size; ++e) {
    ins.put_int(ins_src[e]);
    ins.put(' ');
    ins.put_int(ins_dst[e]);
    put_weights(ins, ins_weights, e, k);
    ins.put('\n');
  }
  ins.commit();
  atomic_file del(delete_path, "write_legacy_batch");
  for (int64_t e = 0; e < del_src.size; ++e) {
    del.put_int(del_src[e]);
    del.put(' ');
    del.put_int(del_dst[e]);
    del.put('\n');
  }
  del.commit();
  together.commit();
}

void write_batches(const std::string& path, const std::vector<dgt_batch_t>& batches) {
  atomic_file f(path, "write_batches");
  f.put("%dgt 1\n");
  for (size_t b = 0; b < batches.size(); ++b) {
    const dgt_batch_t& batch = batches[b];
    f.put("%batch ");
    f.put_int(static_cast<int64_t>(b));
    f.put('\n');
    for (size_t e = 0; e < batch.del_src.size(); ++e) {
      f.put("-e ");
      f.put_int(batch.del_src[e]);
      f.put(' ');
      f.put_int(batch.del_dst[e]);
      f.put('\n');
    }
    for (size_t e = 0; e < batch.ins_src.size(); ++e) {
      f.put("+e ");
      f.put_int(batch.ins_src[e]);
      f.put(' ');
      f.put_int(batch.ins_dst[e]);
      put_weights(f, batch.ins_weights, static_cast<int64_t>(e), batch.num_weights);
      f.put('\n');
    }
  }
  f.commit();
}

void write_vertex_values(const std::string& path, const char* function, int_column_t values,
                         int64_t inf) {
  atomic_file f(path, function);
  for (int64_t v = 0; v < values.size; ++v) {
    f.put_int(v);
    f.put(' ');
    put_value(f, values[v], inf);
    f.put('\n');
  }
  f.commit();
}

void write_path_costs(const std::string& path, std::span<const int64_t> costs, int k, int64_t inf) {
  atomic_file f(path, "write_path_costs");
  const int64_t n = k > 0 ? static_cast<int64_t>(costs.size()) / k : 0;
  for (int64_t v = 0; v < n; ++v) {
    f.put_int(v);
    for (int j = 0; j < k; ++j) {
      f.put(' ');
      put_value(f, costs[static_cast<size_t>(v * k + j)], inf);
    }
    f.put('\n');
  }
  f.commit();
}

void write_text(const std::string& path, const char* function, const std::string& text) {
  atomic_file f(path, function);
  f.put(text);
  f.commit();
}

}  // namespace dyng::io
