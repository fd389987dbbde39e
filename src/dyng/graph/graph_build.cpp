// Graph construction: from_edges() and from_csr(), and the internal from_transposed_csrs().
// from_edges() scatters the edge list straight into rows and sorts / merges each row in place
// (detail/build_rows.hpp). from_csr() reduces its input to a list of entries in CSR order, merges
// repeated pairs unless parallel edges are allowed, and hands each direction to
// assemble_direction(). from_transposed_csrs() only lays out rows that are already final.
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/share_scan.hpp"
#include "dyng/graph/detail/capacity.hpp"
#include "dyng/graph/detail/assemble.hpp"
#include "dyng/graph/detail/bucket_order.hpp"
#include "dyng/graph/detail/build_rows.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/graph/detail/properties_check.hpp"
#include "dyng/graph/detail/transpose_check.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng {
namespace {

/// For entries with keys (a[i], b[i]), returns for each entry the index whose weights it keeps,
/// or -1 when it merges into an earlier entry: the first entry of each key survives (keeping its
/// position) and takes the weights of the key's last entry.
template <class vid_t>
std::vector<int64_t> merge_repeated(int64_t n, const std::vector<vid_t>& a,
                                    const std::vector<vid_t>& b) {
  const int64_t m = static_cast<int64_t>(a.size());
  std::vector<int64_t> start, order;
  detail::bucket_order(n, m, [&](int64_t i) { return static_cast<int64_t>(a[i]); }, order, start);
  std::vector<std::pair<vid_t, int64_t>> bucket(static_cast<size_t>(m));
  for (int64_t p = 0; p < m; ++p) bucket[p] = {b[order[p]], order[p]};
  order = {};
  std::vector<int64_t> keep(static_cast<size_t>(m), -1);
  for (int64_t v = 0; v < n; ++v) {
    auto* first = bucket.data() + start[v];
    auto* last = bucket.data() + start[v + 1];
    detail::stable_sort_row(first, last);
    for (auto* g = first; g < last;) {
      auto* h = g;
      while (h + 1 < last && (h + 1)->first == g->first) ++h;
      keep[g->second] = h->second;
      g = h + 1;
    }
  }
  return keep;
}

template <class vid_t>
void check_ids(std::span<const vid_t> ids, int64_t n, const char* function, const char* what) {
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || static_cast<int64_t>(ids[i]) >= n) {
      throw invalid_argument_error(std::string(function) + ": " + what + " " + std::to_string(i) +
                                   " has vertex id " + std::to_string(ids[i]) +
                                   "; vertex ids must be in [0, " + std::to_string(n) + ")");
    }
  }
}

void check_weight_count(size_t got, int64_t m, int k, const char* function) {
  if (static_cast<int64_t>(got) != m * k) {
    throw invalid_argument_error(std::string(function) + ": got " + std::to_string(got) +
                                 " weights for " + std::to_string(m) + " edges with num_weights " +
                                 std::to_string(k) + "; pass num_edges * num_weights values");
  }
}

/// Builds direction d from the entries (src[i] -> dst[i]) with their K weights (build_rows.hpp),
/// and returns the stored entry count. With K == 1 the weights travel with the columns; otherwise
/// the input index does and the weights are gathered once at the end.
template <class D, class vid_t, class check_fn>
int64_t build_edge_direction(D& d, int64_t n, const detail::row_walk_t& rows,
                             std::span<const vid_t> src, std::span<const vid_t> dst,
                             std::span<const int32_t> weights, int k, bool both_ways, bool sorted,
                             bool merge, double headroom, check_fn&& check) {
  if (k == 1) {
    const int32_t* w = weights.data();
    return detail::build_rows(
        d, d.weights, n, rows, src, dst, [w](int64_t i) { return w[i]; }, both_ways, sorted, merge,
        headroom, check);
  }
  std::vector<int64_t> index;
  const int64_t m = detail::build_rows(
      d, index, n, rows, src, dst, [](int64_t i) { return i; }, both_ways, sorted, merge, headroom,
      check);
  d.weights.assign(d.col.size() * static_cast<size_t>(k), 0);
  if (k > 0) {
    rows.each([&](int64_t v) {
      for (int64_t e = d.row_begin[v]; e < static_cast<int64_t>(d.row_end[v]); ++e) {
        detail::copy_weights(d.weights.data() + e * k, weights.data() + index[e] * k, k);
      }
    });
  }
  return m;
}

/// Lays direction `d` out from a compact CSR whose rows need no sorting or merging, as
/// build_rows() lays out its finished rows: in row order, spare_slots() after each non-empty row
/// (zeroed), offsets (0, 0, 0) for an empty one, then the free tail; compact when the offsets type
/// cannot address the padding.
template <class D, class vid_t, class eid_t>
void layout_csr_direction(D& d, const csr_t<vid_t, eid_t>& csr, int64_t n, int k, double headroom,
                          int threads) {
  const int64_t m = static_cast<int64_t>(csr.col.size());
  const int team = threads > 1 ? threads : 1;
  int64_t total = detail::tail_slots(m, headroom);
#pragma omp parallel for num_threads(team) schedule(static) reduction(+ : total) if (team > 1)
  for (int64_t v = 0; v < n; ++v) {
    const int64_t s = static_cast<int64_t>(csr.row_ptr[v + 1] - csr.row_ptr[v]);
    total += s + detail::spare_slots(s, headroom);
  }
  const bool padded = total <= static_cast<int64_t>(std::numeric_limits<eid_t>::max());
  if (!padded) total = m;
  for (auto* a : {&d.row_begin, &d.row_end, &d.row_capacity_end}) {
    *a = {};
    a->resize(static_cast<size_t>(n));
    a->prefer_huge_pages();
  }
  detail::assign_zeroed(d.col, static_cast<size_t>(total));
  detail::assign_zeroed(d.weights, static_cast<size_t>(total * k));
  // The offsets by a running sum shared out on the team (core/share_scan.hpp), so that the
  // three offset arrays fault their fresh pages in on every thread: a sequential sum, faulting
  // them in on one thread, was most of this layout's time on many cores. Then the rows are
  // copied in parallel.
  auto slots_of = [&](int64_t v) {
    const int64_t s = static_cast<int64_t>(csr.row_ptr[v + 1] - csr.row_ptr[v]);
    return s == 0 ? 0 : padded ? s + detail::spare_slots(s, headroom) : s;
  };
  const int64_t used = scan_shares(
      n, team,
      [&](int64_t lo, int64_t hi) {
        int64_t slots = 0;
        for (int64_t v = lo; v < hi; ++v) slots += slots_of(v);
        return slots;
      },
      [&](int64_t lo, int64_t hi, int64_t pos) {
        for (int64_t v = lo; v < hi; ++v) {
          const int64_t s = static_cast<int64_t>(csr.row_ptr[v + 1] - csr.row_ptr[v]);
          if (s == 0) continue;  // (0, 0, 0), as resize() left it
          d.row_begin[v] = static_cast<eid_t>(pos);
          d.row_end[v] = static_cast<eid_t>(pos + s);
          pos += slots_of(v);
          d.row_capacity_end[v] = static_cast<eid_t>(pos);
        }
      });
  d.tail = static_cast<eid_t>(used);
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
  for (int64_t v = 0; v < n; ++v) {
    const int64_t first = static_cast<int64_t>(csr.row_ptr[v]);
    const int64_t s = static_cast<int64_t>(csr.row_ptr[v + 1]) - first;
    if (s == 0) continue;
    const int64_t at = static_cast<int64_t>(d.row_begin[v]);
    std::memcpy(d.col.data() + at, csr.col.data() + first, sizeof(vid_t) * static_cast<size_t>(s));
    if (k > 0) {
      std::memcpy(d.weights.data() + at * k, csr.weights.data() + first * k,
                  sizeof(int32_t) * static_cast<size_t>(s * k));
    }
  }
}

/// Checks a CSR's offsets against its `m` column entries; returns its vertex count.
template <class vid_t, class eid_t>
int64_t check_csr_offsets(std::span<const eid_t> row_ptr, int64_t m, const char* fn) {
  if (row_ptr.empty()) {
    throw invalid_argument_error(std::string(fn) +
                                 ": row_ptr is empty; pass num_vertices + 1 offsets");
  }
  const int64_t n = static_cast<int64_t>(row_ptr.size()) - 1;
  if (n > static_cast<int64_t>(std::numeric_limits<vid_t>::max())) {
    throw capacity_error(std::string(fn) + ": row_ptr describes " + std::to_string(n) +
                         " vertices, more than the vertex id type can number; use int64 ids");
  }
  if (row_ptr[0] != 0) {
    throw invalid_argument_error(std::string(fn) + ": row_ptr[0] is " + std::to_string(row_ptr[0]) +
                                 "; a CSR starts at offset 0");
  }
  for (int64_t v = 0; v < n; ++v) {
    if (row_ptr[v + 1] < row_ptr[v]) {
      throw invalid_argument_error(std::string(fn) + ": row_ptr decreases at " +
                                   std::to_string(v + 1) + " (" + std::to_string(row_ptr[v]) +
                                   " then " + std::to_string(row_ptr[v + 1]) +
                                   "); offsets must be non-decreasing");
    }
  }
  if (static_cast<int64_t>(row_ptr[n]) != m) {
    throw invalid_argument_error(std::string(fn) + ": row_ptr ends at " +
                                 std::to_string(row_ptr[n]) + " but col_ind has " +
                                 std::to_string(m) + " entries; they must agree");
  }
  return n;
}

/// The CSR's entries as (rows, cols) with keep[i] the input position of each, repeated columns
/// of a row merged unless `allow_parallel_edges` (a CSR row is directional even for an
/// undirected graph: merged within rows only). Returns how many entries are kept.
template <class vid_t, class eid_t>
int64_t csr_entries_kept(std::span<const eid_t> row_ptr, std::span<const vid_t> col, int64_t n,
                         bool allow_parallel_edges, std::vector<vid_t>& rows,
                         std::vector<vid_t>& cols, std::vector<int64_t>& keep) {
  const int64_t m = static_cast<int64_t>(col.size());
  rows.resize(static_cast<size_t>(m));
  for (int64_t v = 0; v < n; ++v) {
    for (int64_t e = row_ptr[v]; e < static_cast<int64_t>(row_ptr[v + 1]); ++e) {
      rows[e] = static_cast<vid_t>(v);
    }
  }
  cols.assign(col.begin(), col.end());
  if (allow_parallel_edges) {
    keep.resize(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; ++i) keep[i] = i;
  } else {
    keep = merge_repeated<vid_t>(n, rows, cols);
  }
  int64_t kept = 0;
  for (int64_t i = 0; i < m; ++i) {
    if (keep[i] < 0) continue;
    rows[kept] = rows[i];
    cols[kept] = cols[i];
    keep[kept] = keep[i];
    ++kept;
  }
  rows.resize(kept);
  cols.resize(kept);
  keep.resize(kept);
  return kept;
}

}  // namespace

template <class vid_t, class eid_t>
graph_t<vid_t, eid_t> graph_t<vid_t, eid_t>::from_transposed_csrs(const csr_t<vid_t, eid_t>& out,
                                                                  const csr_t<vid_t, eid_t>& in,
                                                                  const graph_properties_t& props,
                                                                  int threads) {
  constexpr const char* fn = "Graph.from_transposed_csrs()";
  detail::check_properties(props, fn);
  const int k = props.num_weights;
  const int64_t n = static_cast<int64_t>(out.row_ptr.size()) - 1;
  const int64_t m = static_cast<int64_t>(out.col.size());
  const bool shapes_agree =
      n >= 0 && static_cast<int64_t>(in.row_ptr.size()) == n + 1 &&
      static_cast<int64_t>(in.col.size()) == m && out.num_weights == k && in.num_weights == k &&
      static_cast<int64_t>(out.weights.size()) == m * k &&
      static_cast<int64_t>(in.weights.size()) == m * k &&
      static_cast<int64_t>(out.row_ptr[n]) == m && static_cast<int64_t>(in.row_ptr[n]) == m;
  if (!props.directed || !props.store_transposed || !shapes_agree) {
    throw internal_error(std::string(fn) +
                         ": the two CSRs do not describe one directed graph with in-edges; this "
                         "is a bug in libdyng, please report it");
  }
  detail::check_slot_count<eid_t>(m, fn);
  graph_t g;
  g.props_ = props;
  g.num_vertices_ = static_cast<vid_t>(n);
  g.num_edges_ = static_cast<eid_t>(m);
  layout_csr_direction(g.out_, out, n, k, props.headroom, threads);
  layout_csr_direction(g.in_, in, n, k, props.headroom, threads);
  return g;
}

template <class vid_t, class eid_t>
graph_t<vid_t, eid_t> graph_t<vid_t, eid_t>::from_edges(
    vid_t num_vertices, std::span<const vid_t> src, std::span<const vid_t> dst,
    std::span<const int32_t> weights, const graph_properties_t& props, cancel_token_t cancel) {
  constexpr const char* fn = "Graph.from_edges()";
  detail::check_properties(props, fn);
  if (num_vertices < 0) {
    throw invalid_argument_error(std::string(fn) + ": num_vertices is " +
                                 std::to_string(num_vertices) + "; pass a count >= 0");
  }
  if (src.size() != dst.size()) {
    throw invalid_argument_error(std::string(fn) + ": src has " + std::to_string(src.size()) +
                                 " ids but dst has " + std::to_string(dst.size()) +
                                 "; pass one destination per source");
  }
  const int64_t n = num_vertices;
  const int64_t m = static_cast<int64_t>(src.size());
  const int k = props.num_weights;
  check_weight_count(weights.size(), m, k, fn);
  {
    const int64_t entries = props.directed ? m : 2 * m;
    detail::check_memory(
        detail::from_edges_bytes<vid_t, eid_t>(n, entries, k, props.headroom,
                                               props.directed && props.store_transposed),
        detail::from_edges_largest_block(n, entries, props.headroom),
        "a graph of " + std::to_string(n) + " vertices and " + std::to_string(m) + " edges", fn);
  }
  check_ids(src, n, fn, "edge");
  check_ids(dst, n, fn, "edge");

  graph_t g;
  g.props_ = props;
  g.num_vertices_ = num_vertices;
  const bool sorted = props.order == edge_order_t::sorted;
  // Repeated pairs only ever meet in one row (an undirected pair {u, v} in rows u and v alike),
  // so merging them per row is the same as merging them per pair.
  const bool merge = !props.allow_parallel_edges;
  auto check = [&](int64_t count) { detail::check_slot_count<eid_t>(count, fn); };
  throw_if_cancelled(cancel, fn);
  const auto out_rows = detail::rows_of_entries(n, src, dst, !props.directed);
  throw_if_cancelled(cancel, fn);
  g.num_edges_ = static_cast<eid_t>(build_edge_direction(g.out_, n, out_rows, src, dst, weights, k,
                                                         !props.directed, sorted, merge,
                                                         props.headroom, check));
  if (props.directed && props.store_transposed) {
    throw_if_cancelled(cancel, fn);
    const auto in_rows = detail::rows_of_entries(n, dst, src, false);
    throw_if_cancelled(cancel, fn);
    if (sorted) {
      detail::transpose_rows(g.in_, g.out_, n, k, props.headroom, out_rows, in_rows);
    } else {
      // Append order lists in-edges in input order, which the transpose of the out-rows loses.
      build_edge_direction(g.in_, n, in_rows, dst, src, weights, k, false, false, merge,
                           props.headroom, check);
    }
  }
  return g;
}

template <class vid_t, class eid_t>
graph_t<vid_t, eid_t> graph_t<vid_t, eid_t>::from_csr(std::span<const eid_t> row_ptr,
                                                      std::span<const vid_t> col,
                                                      std::span<const int32_t> weights,
                                                      const graph_properties_t& props,
                                                      cancel_token_t cancel) {
  constexpr const char* fn = "Graph.from_csr()";
  detail::check_properties(props, fn);
  const int64_t n = check_csr_offsets<vid_t>(row_ptr, static_cast<int64_t>(col.size()), fn);
  const int64_t m = static_cast<int64_t>(col.size());
  const int k = props.num_weights;
  check_weight_count(weights.size(), m, k, fn);
  check_ids(col, n, fn, "col_ind entry");
  throw_if_cancelled(cancel, fn);

  std::vector<vid_t> rows, cols;
  std::vector<int64_t> keep;
  const int64_t kept =
      csr_entries_kept(row_ptr, col, n, props.allow_parallel_edges, rows, cols, keep);
  throw_if_cancelled(cancel, fn);

  graph_t g;
  g.props_ = props;
  g.num_vertices_ = static_cast<vid_t>(n);
  g.num_edges_ = static_cast<eid_t>(kept);
  const bool sorted = props.order == edge_order_t::sorted;
  detail::assemble_direction(g.out_, n, std::span<const vid_t>(rows), std::span<const vid_t>(cols),
                             std::span<const int64_t>(keep), weights.data(), k, sorted,
                             props.headroom);
  throw_if_cancelled(cancel, fn);
  if (!props.directed) {
    const std::string mismatch = detail::transpose_mismatch(g.out_, g.out_, n, k);
    if (!mismatch.empty()) {
      throw invalid_argument_error(std::string(fn) +
                                   ": the CSR of an undirected graph is not "
                                   "symmetric (" +
                                   mismatch +
                                   "); store every edge in both rows with equal weights, or "
                                   "pass directed=True");
    }
  } else if (props.store_transposed) {
    detail::assemble_direction(g.in_, n, std::span<const vid_t>(cols), std::span<const vid_t>(rows),
                               std::span<const int64_t>(keep), weights.data(), k, sorted,
                               props.headroom);
  }
  return g;
}

template <class vid_t, class eid_t>
graph_t<vid_t, eid_t> graph_t<vid_t, eid_t>::from_storage(direction_t out, direction_t in,
                                                          vid_t num_vertices, eid_t num_edges,
                                                          const graph_properties_t& props,
                                                          uint64_t version, int64_t relayouts) {
  graph_t g;
  g.props_ = props;
  g.num_vertices_ = num_vertices;
  g.num_edges_ = num_edges;
  g.version_ = version;
  g.relayouts_ = relayouts;
  g.out_ = std::move(out);
  g.in_ = std::move(in);
  return g;
}

#define DYNG_INSTANTIATE_BUILD(V, E)                                                           \
  template graph_t<V, E> graph_t<V, E>::from_edges(V, std::span<const V>, std::span<const V>,  \
                                                   std::span<const int32_t>,                   \
                                                   const graph_properties_t&, cancel_token_t); \
  template graph_t<V, E> graph_t<V, E>::from_csr(std::span<const E>, std::span<const V>,       \
                                                 std::span<const int32_t>,                     \
                                                 const graph_properties_t&, cancel_token_t);   \
  template graph_t<V, E> graph_t<V, E>::from_transposed_csrs(                                  \
      const csr_t<V, E>&, const csr_t<V, E>&, const graph_properties_t&, int);                 \
  template graph_t<V, E> graph_t<V, E>::from_storage(                                          \
      graph_t<V, E>::direction_t, graph_t<V, E>::direction_t, V, E, const graph_properties_t&, \
      uint64_t, int64_t);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_BUILD)

}  // namespace dyng
