// Graph.check_integrity(): verifies every storage invariant and names the first violation.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/graph/detail/slots.hpp"
#include "dyng/graph/detail/transpose_check.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw internal_error("Graph.check_integrity(): " + what +
                       "; this is a bug in libdyng, please report it");
}

/// Row ranges, columns and row order of one direction; returns its stored slot count.
template <class D>
int64_t check_direction(const D& d, const char* name, int64_t n, int num_weights, bool sorted,
                        bool parallel_allowed) {
  const std::string dir = std::string(name) + "-edges: ";
  if (static_cast<int64_t>(d.row_begin.size()) != n ||
      static_cast<int64_t>(d.row_end.size()) != n ||
      static_cast<int64_t>(d.row_capacity_end.size()) != n) {
    fail(dir + "row arrays do not have " + std::to_string(n) + " entries");
  }
  const int64_t size = static_cast<int64_t>(d.col.size());
  if (static_cast<int64_t>(d.weights.size()) != size * num_weights) {
    fail(dir + "weights hold " + std::to_string(d.weights.size()) + " values for " +
         std::to_string(size) + " slots with num_weights " + std::to_string(num_weights));
  }
  const int64_t tail = d.tail;
  if (tail < 0 || tail > size)
    fail(dir + "tail " + std::to_string(tail) + " lies outside the slots");
  std::vector<std::pair<int64_t, int64_t>> ranges;  // (begin, v) of rows owning slots
  int64_t stored = 0;
  for (int64_t v = 0; v < n; ++v) {
    const int64_t b = d.row_begin[v], e = d.row_end[v], c = d.row_capacity_end[v];
    if (!(0 <= b && b <= e && e <= c && c <= tail)) {
      fail(dir + "row " + std::to_string(v) + " has range [" + std::to_string(b) + ", " +
           std::to_string(e) + ") with capacity end " + std::to_string(c) + " and tail " +
           std::to_string(tail));
    }
    if (c > b) ranges.push_back({b, v});
    stored += e - b;
    for (int64_t s = b; s < e; ++s) {
      const int64_t col = d.col[s];
      if (col < 0 || col >= n) {
        fail(dir + "row " + std::to_string(v) + " holds vertex id " + std::to_string(col) +
             " outside [0, " + std::to_string(n) + ")");
      }
      if (sorted && s > b && d.col[s - 1] > d.col[s]) {
        fail(dir + "row " + std::to_string(v) + " is not sorted at slot " + std::to_string(s));
      }
    }
    if (!parallel_allowed) {
      std::vector<typename decltype(d.col)::value_type> row(d.col.begin() + b, d.col.begin() + e);
      std::sort(row.begin(), row.end());
      const auto dup = std::adjacent_find(row.begin(), row.end());
      if (dup != row.end()) {
        fail(dir + "row " + std::to_string(v) + " holds vertex " + std::to_string(*dup) +
             " twice but parallel edges are forbidden");
      }
    }
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    const int64_t prev = ranges[i - 1].second;
    if (static_cast<int64_t>(d.row_capacity_end[prev]) > ranges[i].first) {
      fail(dir + "the slot ranges of rows " + std::to_string(prev) + " and " +
           std::to_string(ranges[i].second) + " overlap");
    }
  }
  return stored;
}

}  // namespace

template <class vid_t, class eid_t>
void graph_t<vid_t, eid_t>::check_integrity() const {
  const int64_t n = num_vertices_;
  const int k = props_.num_weights;
  const bool sorted = props_.order == edge_order_t::sorted;
  if (n < 0) fail("num_vertices is " + std::to_string(n));
  const int64_t stored = check_direction(out_, "out", n, k, sorted, props_.allow_parallel_edges);
  if (stored != static_cast<int64_t>(num_edges_)) {
    fail("num_edges is " + std::to_string(num_edges_) + " but the out-edges hold " +
         std::to_string(stored));
  }
  if (!props_.directed) {
    const std::string mismatch = detail::transpose_mismatch(out_, out_, n, k);
    if (!mismatch.empty()) fail("the undirected graph is not symmetric: " + mismatch);
  } else if (props_.store_transposed) {
    const int64_t stored_in = check_direction(in_, "in", n, k, sorted, props_.allow_parallel_edges);
    if (stored_in != stored) {
      fail("the in-edges hold " + std::to_string(stored_in) + " edges but the out-edges " +
           std::to_string(stored));
    }
    const std::string mismatch = detail::transpose_mismatch(out_, in_, n, k);
    if (!mismatch.empty()) fail("the in-edges are not the transpose of the out-edges: " + mismatch);
  }
}

#define DYNG_INSTANTIATE_CHECK(V, E) template void graph_t<V, E>::check_integrity() const;
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_CHECK)

}  // namespace dyng
