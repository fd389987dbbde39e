// Compares a stored in-edge direction with the transpose of an out-edge direction, copy for copy:
// the k-th copy of (u, v) in out-row u must be the k-th copy of u in in-row v, with equal weights.
// check_integrity() uses it for in-edges, and (passing the out direction twice) for the symmetry
// of undirected graphs, which from_csr() also has to verify on its input.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "dyng/graph/detail/assemble.hpp"

namespace dyng::detail {

/// Describes the first vertex whose in-edges differ from the transposed out-edges, or returns an
/// empty string when the two directions match. Both directions must have n rows with in-range
/// columns (checked before).
template <class D>
std::string transpose_mismatch(const D& out, const D& in, int64_t n, int num_weights) {
  using vid_t = typename decltype(out.col)::value_type;
  const int64_t k = num_weights;
  // Transpose out: for each v, the (u, out slot) pairs by ascending u, copies in row order.
  std::vector<int64_t> start(static_cast<size_t>(n) + 1, 0);
  for (int64_t u = 0; u < n; ++u) {
    for (int64_t e = out.row_begin[u]; e < static_cast<int64_t>(out.row_end[u]); ++e) {
      ++start[static_cast<size_t>(out.col[e]) + 1];
    }
  }
  for (int64_t v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<std::pair<vid_t, int64_t>> expected(static_cast<size_t>(start[n]));
  {
    std::vector<int64_t> fill(start.begin(), start.end() - 1);
    for (int64_t u = 0; u < n; ++u) {
      for (int64_t e = out.row_begin[u]; e < static_cast<int64_t>(out.row_end[u]); ++e) {
        expected[fill[out.col[e]]++] = {static_cast<vid_t>(u), e};
      }
    }
  }
  std::vector<std::pair<vid_t, int64_t>> actual;
  for (int64_t v = 0; v < n; ++v) {
    const int64_t b = in.row_begin[v];
    const int64_t s = static_cast<int64_t>(in.row_end[v]) - b;
    const int64_t want = start[v + 1] - start[v];
    if (s != want) {
      return "vertex " + std::to_string(v) + " has " + std::to_string(s) + " in-edges stored but " +
             std::to_string(want) + " out-edges point to it";
    }
    actual.clear();
    for (int64_t j = 0; j < s; ++j) actual.push_back({in.col[b + j], b + j});
    stable_sort_row(actual.data(), actual.data() + s);
    for (int64_t j = 0; j < s; ++j) {
      const auto& [u, out_slot] = expected[start[v] + j];
      const auto& [iu, in_slot] = actual[j];
      if (u != iu) {
        return "the in-edges of vertex " + std::to_string(v) + " list source " +
               std::to_string(iu) + " where the out-edges give " + std::to_string(u);
      }
      if (k > 0 && std::memcmp(&out.weights[out_slot * k], &in.weights[in_slot * k],
                               sizeof(int32_t) * k) != 0) {
        return "edge (" + std::to_string(u) + ", " + std::to_string(v) +
               ") has different weights in its out-edge and in-edge copies";
      }
    }
  }
  return {};
}

}  // namespace dyng::detail
