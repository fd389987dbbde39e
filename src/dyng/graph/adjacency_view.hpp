// A read-only view of one direction of a graph's adjacency (out-edges or in-edges).
//
// Rows are slot ranges [row_begin[v], row_end[v]) inside one column array, because the graph keeps
// per-row slack so that small batches edit rows in place instead of rebuilding the CSR. Algorithms
// read only through this view, which is why they do not care how the storage grows.
#pragma once

#include <cstdint>

namespace dyng {

template <class vid_t, class eid_t>
struct adjacency_view_t {
  vid_t num_vertices = 0;
  int num_weights = 0;               ///< K: weights per edge, 0 for an unweighted graph.
  const eid_t* row_begin = nullptr;  ///< n entries: first slot of row v.
  const eid_t* row_end = nullptr;    ///< n entries: one past the last used slot of row v.
  const vid_t* col = nullptr;        ///< Neighbour of each slot.
  const int32_t* weights = nullptr;  ///< K weights per slot, slot-major; null when K == 0.

  eid_t begin(vid_t v) const { return row_begin[v]; }
  eid_t end(vid_t v) const { return row_end[v]; }
  eid_t degree(vid_t v) const { return row_end[v] - row_begin[v]; }
  vid_t neighbour(eid_t slot) const { return col[slot]; }
  int32_t weight(eid_t slot, int k) const {
    return weights[static_cast<int64_t>(slot) * num_weights + k];
  }
};

}  // namespace dyng
