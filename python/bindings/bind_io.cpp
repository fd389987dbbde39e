// dyng.io's native functions: the readers and writers of src/dyng/io, with the GIL released
// while a file is read or written. Arguments arrive checked and converted by python/dyng/io/;
// arrays leave as fresh NumPy arrays that Python owns.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "arrays.hpp"
#include "dyng/io/edge_readers.hpp"
#include "dyng/io/small_readers.hpp"
#include "dyng/io/writers.hpp"
#include "module.hpp"

namespace dyng::bindings {
namespace {

/// A reader's column as a NumPy array of `out_t` elements (T itself, or int32 for uint32 ids
/// below 2^31, which have the same bytes; or int32 for int64 ids narrowed in place, the first
/// `size` of them), owning the column's memory: no copy.
template <class out_t, class T>
out_array_t column_array(io::column_t<T>&& column, size_t size) {
  static_assert(sizeof(out_t) <= sizeof(T));
  if (size == 0) return to_numpy(std::vector<out_t>());  // an empty column owns no memory
  auto* owned = new io::column_t<T>(std::move(column));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<io::column_t<T>*>(p); });
  return out_array_t(owned->data(), {size}, owner, {}, nb::dtype<out_t>());
}

template <class T>
out_array_t column_array(io::column_t<T>&& column) {
  const size_t size = column.size();
  return column_array<T>(std::move(column), size);
}

/// One id column as int32 (`wide` false; num_vertices was range-checked) or int64.
nb::object id_array(io::column_t<uint32_t>&& narrow_ids, io::column_t<int64_t>&& wide_ids,
                    bool table_wide, bool wide) {
  if (!table_wide && !wide) {
    const size_t m = narrow_ids.size();
    return nb::cast(column_array<int32_t>(std::move(narrow_ids), m));
  }
  if (table_wide && wide) return nb::cast(column_array(std::move(wide_ids)));
  if (!table_wide) {
    io::column_t<int64_t> widened(narrow_ids.size());
    std::copy(narrow_ids.begin(), narrow_ids.end(), widened.begin());
    return nb::cast(column_array(std::move(widened)));
  }
  // 64-bit ids narrowed in place, in the column's own buffer: element i moves from byte 8i to
  // byte 4i, which a forward pass never overwrites before reading, so no second array of tens
  // of millions of ids is allocated.
  const size_t m = wide_ids.size();
  char* bytes = reinterpret_cast<char*>(wide_ids.data());
  for (size_t i = 0; i < m; ++i) {
    int64_t v;
    // Bytes, not typed pointers: the buffer holds int64 objects, and memcpy keeps the aliasing
    // legal and the forward order intact.
    std::memcpy(&v, bytes + 8 * i, sizeof v);
    const int32_t narrow = static_cast<int32_t>(v);
    std::memcpy(bytes + 4 * i, &narrow, sizeof narrow);
  }
  return nb::cast(column_array<int32_t>(std::move(wide_ids), m));
}

/// (num_vertices, src, dst, weights flat or None, K, external_ids, timestamps, matrix_market,
/// symmetric): the tuple the Python layer turns into an EdgeList.
nb::tuple edge_tuple(io::edge_table_t&& t, bool wide, const char* function) {
  if (!wide && t.num_vertices > std::numeric_limits<int32_t>::max())
    throw invalid_argument_error(std::string(function) + "(): " + std::to_string(t.num_vertices) +
                                 " vertices do not fit int32 ids; pass vertex_dtype='int64'");
  const int k = t.num_weights;
  nb::object weights = k > 0 ? nb::cast(column_array(std::move(t.weights))) : nb::none();
  nb::object src = id_array(std::move(t.src32), std::move(t.src64), t.wide, wide);
  nb::object dst = id_array(std::move(t.dst32), std::move(t.dst64), t.wide, wide);
  return nb::make_tuple(t.num_vertices, src, dst, weights, k, to_numpy(std::move(t.external_ids)),
                        column_array(std::move(t.timestamps)), t.matrix_market, t.symmetric);
}

io::int_column_t column(const in_array_t& a, const char* function, const char* name) {
  io::int_column_t c;
  c.size = static_cast<int64_t>(a.shape(0));
  if (has_dtype<int32_t>(a)) c.narrow = static_cast<const int32_t*>(a.data());
  else if (has_dtype<int64_t>(a)) c.wide = static_cast<const int64_t*>(a.data());
  else
    throw invalid_argument_error(std::string(function) + "(): " + name + " has dtype " +
                                 describe_dtype(a.dtype()) + "; pass int32 or int64");
  return c;
}

std::span<const int32_t> weights_span(const in_array_t& a, const char* function) {
  return as_span<int32_t>(a, function, "weights");
}

nb::tuple batch_tuple(io::dgt_batch_t&& b) {
  return nb::make_tuple(to_numpy(std::move(b.ins_src)), to_numpy(std::move(b.ins_dst)),
                        to_numpy(std::move(b.ins_weights)), b.num_weights,
                        to_numpy(std::move(b.del_src)), to_numpy(std::move(b.del_dst)));
}

nb::tuple read_edge_list(const std::string& path, int num_weights, bool compact, int64_t index_base,
                         bool symmetrize, bool drop_self_loops, bool merge, int threads, bool wide,
                         int64_t source_lo, int64_t source_hi) {
  io::edge_list_options_t o;
  o.num_weights = num_weights;
  o.compact = compact;
  o.index_base = index_base;
  o.symmetrize = symmetrize;
  o.drop_self_loops = drop_self_loops;
  o.merge_duplicates = merge;
  o.max_as_is_offset = wide ? io::k_max_as_is_offset : io::k_max_as_is_offset_int32;
  o.sources = {source_lo, source_hi};
  o.scan.threads = threads;
  io::edge_table_t t;
  {
    nb::gil_scoped_release release;
    t = io::read_edge_list(path, o);
  }
  return edge_tuple(std::move(t), wide, "read_edge_list");
}

nb::tuple read_matrix_market(const std::string& path, const std::string& weights, int num_weights,
                             int32_t lo, int32_t hi, uint32_t seed, bool drop_self_loops,
                             bool sort_and_dedupe, int threads, bool wide, int64_t source_lo,
                             int64_t source_hi) {
  io::matrix_market_options_t o;
  o.weights = weights == "none"        ? io::mm_weights_t::none
              : weights == "from_file" ? io::mm_weights_t::from_file
              : weights == "random"    ? io::mm_weights_t::random
                                       : io::mm_weights_t::automatic;
  o.num_weights = num_weights;
  o.random_min = lo;
  o.random_max = hi;
  o.random_seed = seed;
  o.drop_self_loops = drop_self_loops;
  o.sort_and_dedupe = sort_and_dedupe;
  o.sources = {source_lo, source_hi};
  o.scan.threads = threads;
  io::edge_table_t t;
  {
    nb::gil_scoped_release release;
    t = io::read_matrix_market(path, o);
  }
  return edge_tuple(std::move(t), wide, "read_matrix_market");
}

nb::tuple read_csr_triplet(const std::string& prefix, int num_weights) {
  io::csr_table_t t;
  {
    nb::gil_scoped_release release;
    t = io::read_csr_triplet(prefix, num_weights);
  }
  return nb::make_tuple(to_numpy(std::move(t.row_ptr)), to_numpy(std::move(t.col_ind)),
                        to_numpy(std::move(t.weights)), t.num_weights);
}

nb::tuple read_legacy_batch(const std::string& ins, const std::string& del, int k, int64_t n,
                            int64_t id_max, bool lenient) {
  io::dgt_batch_t b;
  {
    nb::gil_scoped_release release;
    b = io::read_legacy_batch(ins, del, k, n, id_max, lenient);
  }
  return batch_tuple(std::move(b));
}

nb::list read_batches(const std::string& path, int k, int64_t n) {
  std::vector<io::dgt_batch_t> batches;
  {
    nb::gil_scoped_release release;
    batches = io::read_batches(path, k, n);
  }
  nb::list out;
  for (auto& b : batches) out.append(batch_tuple(std::move(b)));
  return out;
}

out_array_t read_vertex_values(const std::string& path, const std::string& function, int64_t n,
                               int64_t inf, int64_t minimum, int64_t below) {
  std::vector<int64_t> values;
  {
    nb::gil_scoped_release release;
    values = io::read_vertex_values(path, function.c_str(), n, inf, minimum, below);
  }
  return to_numpy(std::move(values));
}

void write_edge_list(const std::string& path, const in_array_t& src, const in_array_t& dst,
                     const in_array_t& weights, int k) {
  const char* f = "write_edge_list";
  auto s = column(src, f, "src");
  auto d = column(dst, f, "dst");
  auto w = weights_span(weights, f);
  nb::gil_scoped_release release;
  io::write_edge_list(path, s, d, w, k);
}

void write_matrix_market(const std::string& path, int64_t n, const in_array_t& src,
                         const in_array_t& dst, const in_array_t& weights, int k, int col) {
  const char* f = "write_matrix_market";
  auto s = column(src, f, "src");
  auto d = column(dst, f, "dst");
  auto w = weights_span(weights, f);
  nb::gil_scoped_release release;
  io::write_matrix_market(path, n, s, d, w, k, col);
}

void write_csr_triplet(const std::string& prefix, const in_array_t& row_ptr,
                       const in_array_t& col_ind, const in_array_t& weights, int k) {
  const char* f = "write_csr_triplet";
  auto r = column(row_ptr, f, "row_ptr");
  auto c = column(col_ind, f, "col_ind");
  auto w = weights_span(weights, f);
  nb::gil_scoped_release release;
  io::write_csr_triplet(prefix, r, c, w, k);
}

void write_legacy_batch(const std::string& ins, const std::string& del, const in_array_t& is,
                        const in_array_t& id, const in_array_t& iw, int k, const in_array_t& ds,
                        const in_array_t& dd) {
  const char* f = "write_legacy_batch";
  auto a = column(is, f, "insert_src"), b = column(id, f, "insert_dst");
  auto c = column(ds, f, "delete_src"), d = column(dd, f, "delete_dst");
  auto w = weights_span(iw, f);
  nb::gil_scoped_release release;
  io::write_legacy_batch(ins, del, a, b, w, k, c, d);
}

std::vector<int64_t> to_vector(const in_array_t& a, const char* name) {
  const io::int_column_t c = column(a, "write_batches", name);
  std::vector<int64_t> v(static_cast<size_t>(c.size));
  for (int64_t i = 0; i < c.size; ++i) v[i] = c[i];
  return v;
}

void write_batches(const std::string& path, nb::list batches) {
  std::vector<io::dgt_batch_t> all;
  for (nb::handle item : batches) {
    nb::tuple t = nb::cast<nb::tuple>(item);
    io::dgt_batch_t b;
    b.ins_src = to_vector(nb::cast<in_array_t>(t[0]), "insert_src");
    b.ins_dst = to_vector(nb::cast<in_array_t>(t[1]), "insert_dst");
    auto w = weights_span(nb::cast<in_array_t>(t[2]), "write_batches");
    b.ins_weights.assign(w.begin(), w.end());
    b.num_weights = nb::cast<int>(t[3]);
    b.del_src = to_vector(nb::cast<in_array_t>(t[4]), "delete_src");
    b.del_dst = to_vector(nb::cast<in_array_t>(t[5]), "delete_dst");
    all.push_back(std::move(b));
  }
  nb::gil_scoped_release release;
  io::write_batches(path, all);
}

void write_vertex_values(const std::string& path, const std::string& function,
                         const in_array_t& values, int64_t inf) {
  auto v = column(values, function.c_str(), "values");
  nb::gil_scoped_release release;
  io::write_vertex_values(path, function.c_str(), v, inf);
}

void write_path_costs(const std::string& path, const in_array_t& costs, int k, int64_t inf) {
  auto c = as_span<int64_t>(costs, "write_path_costs", "costs");
  nb::gil_scoped_release release;
  io::write_path_costs(path, c, k, inf);
}

void write_text(const std::string& path, const std::string& function, const std::string& text) {
  nb::gil_scoped_release release;
  io::write_text(path, function.c_str(), text);
}

}  // namespace

void bind_io(nb::module_& m) {
  m.def(
      "io_seeded_uniform",
      [](int64_t count, int32_t lo, int32_t hi, uint32_t seed) {
        return to_numpy(io::seeded_uniform(count, lo, hi, seed));
      },
      nb::arg("count"), nb::arg("lo"), nb::arg("hi"), nb::arg("seed"),
      "count int32 values uniform in [lo, hi] from std::mt19937(seed), as mospPrep draws them.");
  m.def("io_read_edge_list", &read_edge_list, nb::arg("path"), nb::arg("num_weights"),
        nb::arg("compact"), nb::arg("index_base"), nb::arg("symmetrize"),
        nb::arg("drop_self_loops"), nb::arg("merge"), nb::arg("threads"), nb::arg("wide"),
        nb::arg("source_lo"), nb::arg("source_hi"),
        "Edge list -> (n, src, dst, weights|None, K, external_ids, timestamps, mm, symmetric), "
        "the edges with source_lo <= src < source_hi.");
  m.def("io_read_matrix_market", &read_matrix_market, nb::arg("path"), nb::arg("weights"),
        nb::arg("num_weights"), nb::arg("random_min"), nb::arg("random_max"),
        nb::arg("random_seed"), nb::arg("drop_self_loops"), nb::arg("sort_and_dedupe"),
        nb::arg("threads"), nb::arg("wide"), nb::arg("source_lo"), nb::arg("source_hi"),
        "Matrix Market -> the tuple of io_read_edge_list.");
  m.def("io_read_csr_triplet", &read_csr_triplet, nb::arg("prefix"), nb::arg("num_weights"),
        "CSR triplet -> (row_ptr, col_ind, weights flat, K), int64 indices.");
  m.def("io_read_legacy_batch", &read_legacy_batch, nb::arg("insert_path"), nb::arg("delete_path"),
        nb::arg("num_weights"), nb::arg("num_vertices"), nb::arg("id_max"), nb::arg("mosp_lenient"),
        "insert.txt/delete.txt -> (ins_src, ins_dst, ins_weights flat, K, del_src, del_dst).");
  m.def("io_read_batches", &read_batches, nb::arg("path"), nb::arg("num_weights"),
        nb::arg("num_vertices"), ".dgt -> list of the tuples of io_read_legacy_batch.");
  m.def("io_read_vertex_values", &read_vertex_values, nb::arg("path"), nb::arg("function"),
        nb::arg("num_vertices"), nb::arg("inf"), nb::arg("minimum"), nb::arg("below"),
        "'v value' lines -> int64 array indexed by vertex.");
  m.def("io_write_edge_list", &write_edge_list, nb::arg("path"), nb::arg("src"), nb::arg("dst"),
        nb::arg("weights"), nb::arg("num_weights"), "Writes 'src dst w1..wK' lines.");
  m.def("io_write_matrix_market", &write_matrix_market, nb::arg("path"), nb::arg("num_vertices"),
        nb::arg("src"), nb::arg("dst"), nb::arg("weights"), nb::arg("num_weights"),
        nb::arg("weight_column"), "Writes a coordinate MM file.");
  m.def("io_write_csr_triplet", &write_csr_triplet, nb::arg("prefix"), nb::arg("row_ptr"),
        nb::arg("col_ind"), nb::arg("weights"), nb::arg("num_weights"),
        "Writes RowPtr/ColInd/Values files.");
  m.def("io_write_legacy_batch", &write_legacy_batch, nb::arg("insert_path"),
        nb::arg("delete_path"), nb::arg("insert_src"), nb::arg("insert_dst"),
        nb::arg("insert_weights"), nb::arg("num_weights"), nb::arg("delete_src"),
        nb::arg("delete_dst"), "Writes insert.txt and delete.txt.");
  m.def("io_write_batches", &write_batches, nb::arg("path"), nb::arg("batches"),
        "Writes a .dgt file from tuples (ins_src, ins_dst, ins_w, K, del_src, del_dst).");
  m.def("io_write_vertex_values", &write_vertex_values, nb::arg("path"), nb::arg("function"),
        nb::arg("values"), nb::arg("inf"), "Writes 'v value' lines (INF at or above inf > 0).");
  m.def("io_write_path_costs", &write_path_costs, nb::arg("path"), nb::arg("costs"),
        nb::arg("num_columns"), nb::arg("inf"), "Writes 'v c1 .. cK' lines.");
  m.def("io_write_text", &write_text, nb::arg("path"), nb::arg("function"), nb::arg("text"),
        "Writes text atomically.");
}

}  // namespace dyng::bindings
