// Helpers of the GPU suites: small slotted graphs built on the host (with spare slots full of
// junk that a kernel must never read), their device copies, whole-graph uploads of a graph_t's
// views, and the skip rule.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/graph/adjacency_view.hpp"

namespace dyng_test {

/// ctest's SKIP_RETURN_CODE for the gpu label: no device is not a failure.
inline constexpr int k_skip = 77;

/// Returns true (after saying why) when the suite must be skipped.
inline bool no_device() {
  if (dyng::cuda::visible_device_count() > 0) return false;
  std::printf("SKIP: no CUDA device is visible to this process\n");
  return true;
}

struct edges_t {
  int64_t n = 0;
  int num_weights = 1;
  std::vector<int64_t> src, dst;
  std::vector<int32_t> weights;  // K per edge

  void add(int64_t u, int64_t v, std::vector<int32_t> w) {
    src.push_back(u);
    dst.push_back(v);
    weights.insert(weights.end(), w.begin(), w.end());
  }
};

/// One direction in host memory, rows placed in a shuffled order with 0-3 spare slots each.
template <class vid_t, class eid_t>
struct host_direction_t {
  std::vector<eid_t> row_begin, row_end;
  std::vector<vid_t> col;
  std::vector<int32_t> weights;
  int num_weights = 1;

  dyng::adjacency_view_t<vid_t, eid_t> view() const {
    return {static_cast<vid_t>(row_begin.size()),
            num_weights,
            row_begin.data(),
            row_end.data(),
            col.data(),
            weights.data()};
  }
};

template <class vid_t, class eid_t>
host_direction_t<vid_t, eid_t> build_direction(const edges_t& g, bool transpose, uint32_t seed) {
  std::mt19937 rng(seed);
  const int64_t n = g.n;
  const int k = g.num_weights;
  std::vector<std::vector<int64_t>> rows(n);
  for (size_t i = 0; i < g.src.size(); ++i) rows[transpose ? g.dst[i] : g.src[i]].push_back(i);
  std::vector<int64_t> order(n);
  for (int64_t v = 0; v < n; ++v) order[v] = v;
  std::shuffle(order.begin(), order.end(), rng);
  host_direction_t<vid_t, eid_t> d;
  d.num_weights = k;
  d.row_begin.resize(n);
  d.row_end.resize(n);
  for (int64_t v : order) {
    d.row_begin[v] = static_cast<eid_t>(d.col.size());
    for (int64_t i : rows[v]) {
      d.col.push_back(static_cast<vid_t>(transpose ? g.src[i] : g.dst[i]));
      for (int j = 0; j < k; ++j) d.weights.push_back(g.weights[i * k + j]);
    }
    d.row_end[v] = static_cast<eid_t>(d.col.size());
    // Junk a correct kernel never reads: a weight-1 edge to a random vertex.
    const int spare = static_cast<int>(rng() % 4);
    for (int s = 0; s < spare; ++s) {
      d.col.push_back(static_cast<vid_t>(rng() % n));
      for (int j = 0; j < k; ++j) d.weights.push_back(1);
    }
  }
  return d;
}

/// Device copy of a host direction.
template <class vid_t, class eid_t>
struct device_direction_t {
  dyng::cuda::device_buffer<eid_t> row_begin, row_end;
  dyng::cuda::device_buffer<vid_t> col;
  dyng::cuda::device_buffer<int32_t> weights;
  dyng::adjacency_view_t<vid_t, eid_t> view;

  explicit device_direction_t(const host_direction_t<vid_t, eid_t>& h)
      : row_begin(h.row_begin.size()),
        row_end(h.row_end.size()),
        col(h.col.size()),
        weights(h.weights.size()) {
    row_begin.copy_from_host(h.row_begin.data(), h.row_begin.size());
    row_end.copy_from_host(h.row_end.data(), h.row_end.size());
    col.copy_from_host(h.col.data(), h.col.size());
    weights.copy_from_host(h.weights.data(), h.weights.size());
    view = {static_cast<vid_t>(h.row_begin.size()),
            h.num_weights,
            row_begin.data(),
            row_end.data(),
            col.data(),
            weights.data()};
  }
};

/// Device copy of one direction of a graph_t, uploaded whole from its host view (rows keep their
/// slots and spare slots, so the device sees the graph_t's own layout). Tests re-upload after
/// every apply(); the incremental device mirror lives in src/dyng/graph/cuda/.
template <class vid_t, class eid_t>
struct uploaded_view_t {
  dyng::cuda::device_buffer<eid_t> row_begin, row_end;
  dyng::cuda::device_buffer<vid_t> col;
  dyng::cuda::device_buffer<int32_t> weights;
  dyng::adjacency_view_t<vid_t, eid_t> view;

  explicit uploaded_view_t(const dyng::adjacency_view_t<vid_t, eid_t>& host) {
    const size_t n = static_cast<size_t>(host.num_vertices);
    // The slots a kernel may read end at the largest row end.
    size_t slots = 0;
    for (size_t v = 0; v < n; ++v) slots = std::max(slots, static_cast<size_t>(host.row_end[v]));
    const size_t k = static_cast<size_t>(host.num_weights);
    row_begin = dyng::cuda::device_buffer<eid_t>(std::max<size_t>(1, n));
    row_end = dyng::cuda::device_buffer<eid_t>(std::max<size_t>(1, n));
    col = dyng::cuda::device_buffer<vid_t>(std::max<size_t>(1, slots));
    weights = dyng::cuda::device_buffer<int32_t>(std::max<size_t>(1, slots * k));
    row_begin.copy_from_host(host.row_begin, n);
    row_end.copy_from_host(host.row_end, n);
    col.copy_from_host(host.col, slots);
    weights.copy_from_host(host.weights, slots * k);
    view = {host.num_vertices, host.num_weights, row_begin.data(),
            row_end.data(),    col.data(),       weights.data()};
  }
};

}  // namespace dyng_test
