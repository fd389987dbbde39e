// Read access to a graph (accessors, views, copies out) and reserve().
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/graph/detail/slots.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng {

template <class vid_t, class eid_t>
vid_t graph_t<vid_t, eid_t>::num_vertices() const noexcept {
  return num_vertices_;
}

template <class vid_t, class eid_t>
eid_t graph_t<vid_t, eid_t>::num_edges() const noexcept {
  return num_edges_;
}

template <class vid_t, class eid_t>
int graph_t<vid_t, eid_t>::num_weights() const noexcept {
  return props_.num_weights;
}

template <class vid_t, class eid_t>
uint64_t graph_t<vid_t, eid_t>::version() const noexcept {
  return version_;
}

template <class vid_t, class eid_t>
const graph_properties_t& graph_t<vid_t, eid_t>::properties() const noexcept {
  return props_;
}

template <class vid_t, class eid_t>
bool graph_t<vid_t, eid_t>::has_transposed() const noexcept {
  return props_.store_transposed;
}

template <class vid_t, class eid_t>
adjacency_view_t<vid_t, eid_t> graph_t<vid_t, eid_t>::view_of(const direction_t& d) const noexcept {
  adjacency_view_t<vid_t, eid_t> view;
  view.num_vertices = num_vertices_;
  view.num_weights = props_.num_weights;
  view.row_begin = d.row_begin.data();
  view.row_end = d.row_end.data();
  view.col = d.col.data();
  view.weights = props_.num_weights > 0 ? d.weights.data() : nullptr;
  return view;
}

template <class vid_t, class eid_t>
adjacency_view_t<vid_t, eid_t> graph_t<vid_t, eid_t>::out_view() const noexcept {
  return view_of(out_);
}

template <class vid_t, class eid_t>
adjacency_view_t<vid_t, eid_t> graph_t<vid_t, eid_t>::in_view() const {
  if (!props_.store_transposed) {
    throw not_supported_error(
        "Graph.in_view(): the graph was built without in-edges; rebuild it with "
        "store_transposed=True");
  }
  // An undirected graph is its own transpose, so it keeps one copy of the adjacency.
  return view_of(props_.directed ? in_ : out_);
}

template <class vid_t, class eid_t>
csr_t<vid_t, eid_t> graph_t<vid_t, eid_t>::to_csr() const {
  const int64_t n = num_vertices_;
  const int64_t k = props_.num_weights;
  csr_t<vid_t, eid_t> csr;
  csr.num_weights = props_.num_weights;
  csr.row_ptr.resize(static_cast<size_t>(n) + 1);
  csr.col.resize(static_cast<size_t>(num_edges_));
  csr.weights.resize(static_cast<size_t>(num_edges_ * k));
  int64_t pos = 0;
  csr.row_ptr[0] = 0;
  for (int64_t v = 0; v < n; ++v) {
    const int64_t b = out_.row_begin[v];
    const int64_t s = detail::row_size(out_, v);
    if (s > 0) {
      std::memcpy(csr.col.data() + pos, out_.col.data() + b, sizeof(vid_t) * s);
      if (k > 0) {
        std::memcpy(csr.weights.data() + pos * k, out_.weights.data() + b * k,
                    sizeof(int32_t) * s * k);
      }
    }
    pos += s;
    csr.row_ptr[v + 1] = static_cast<eid_t>(pos);
  }
  return csr;
}

template <class vid_t, class eid_t>
void graph_t<vid_t, eid_t>::edges(std::vector<vid_t>& src, std::vector<vid_t>& dst,
                                  std::vector<int32_t>& weights) const {
  // Straight from the rows, in CSR order: no row_ptr, so the memory is O(edges) however many
  // isolated vertices the graph has.
  const int64_t k = props_.num_weights;
  const auto m = static_cast<size_t>(num_edges_);
  src.resize(m);
  dst.resize(m);
  weights.resize(m * static_cast<size_t>(k));
  int64_t pos = 0;
  for (int64_t v = 0; v < static_cast<int64_t>(num_vertices_); ++v) {
    const int64_t b = out_.row_begin[v];
    const int64_t s = detail::row_size(out_, v);
    if (s == 0) continue;
    std::fill(src.begin() + pos, src.begin() + pos + s, static_cast<vid_t>(v));
    std::memcpy(dst.data() + pos, out_.col.data() + b, sizeof(vid_t) * s);
    if (k > 0) {
      std::memcpy(weights.data() + pos * k, out_.weights.data() + b * k, sizeof(int32_t) * s * k);
    }
    pos += s;
  }
}

template <class vid_t, class eid_t>
void graph_t<vid_t, eid_t>::reserve(int64_t edge_capacity) {
  if (edge_capacity < 0) {
    throw invalid_argument_error("Graph.reserve(): edge_capacity is " +
                                 std::to_string(edge_capacity) + "; pass a count >= 0");
  }
  detail::check_slot_count<eid_t>(edge_capacity, "Graph.reserve()");
  const int64_t m = num_edges_;
  // Nothing to make room for; a relayout would only move data.
  if (edge_capacity <= m) return;
  const int64_t n = num_vertices_;
  const double extra = static_cast<double>(edge_capacity - m);
  const double mean_degree = n > 0 ? static_cast<double>(m) / static_cast<double>(n) : 0.0;
  // Row v expects a share of the new edges between "uniform over vertices" and "proportional to
  // degree" (real update streams lie in between), plus two standard deviations of slack so that
  // few rows overflow; the tail takes half the reservation for those that still do.
  auto spare = [&](int64_t, int64_t size) {
    const double weight =
        m > 0 ? (static_cast<double>(size) + mean_degree) / (2.0 * static_cast<double>(m))
              : 1.0 / static_cast<double>(n);
    const double share = extra * weight;
    const auto slack = static_cast<int64_t>(std::ceil(share + 2.0 * std::sqrt(share)));
    return std::max(detail::spare_slots(size, props_.headroom), slack);
  };
  const auto tail = static_cast<int64_t>(extra / 2);
  detail::relayout(out_, props_.num_weights, spare, props_.headroom, tail);
  ++relayouts_;
  if (props_.directed && props_.store_transposed) {
    detail::relayout(in_, props_.num_weights, spare, props_.headroom, tail);
    ++relayouts_;
  }
}

template <class vid_t, class eid_t>
int64_t graph_t<vid_t, eid_t>::slot_capacity() const noexcept {
  return static_cast<int64_t>(out_.col.size());
}

template <class vid_t, class eid_t>
int64_t graph_t<vid_t, eid_t>::in_slot_capacity() const noexcept {
  if (!props_.store_transposed) return 0;
  return static_cast<int64_t>((props_.directed ? in_ : out_).col.size());
}

template <class vid_t, class eid_t>
int64_t graph_t<vid_t, eid_t>::relayout_count() const noexcept {
  return relayouts_;
}

#define DYNG_INSTANTIATE_ACCESS(V, E)                                                         \
  template V graph_t<V, E>::num_vertices() const noexcept;                                    \
  template E graph_t<V, E>::num_edges() const noexcept;                                       \
  template int graph_t<V, E>::num_weights() const noexcept;                                   \
  template uint64_t graph_t<V, E>::version() const noexcept;                                  \
  template const graph_properties_t& graph_t<V, E>::properties() const noexcept;              \
  template bool graph_t<V, E>::has_transposed() const noexcept;                               \
  template adjacency_view_t<V, E> graph_t<V, E>::view_of(const direction_t&) const noexcept;  \
  template adjacency_view_t<V, E> graph_t<V, E>::out_view() const noexcept;                   \
  template adjacency_view_t<V, E> graph_t<V, E>::in_view() const;                             \
  template csr_t<V, E> graph_t<V, E>::to_csr() const;                                         \
  template void graph_t<V, E>::edges(std::vector<V>&, std::vector<V>&, std::vector<int32_t>&) \
      const;                                                                                  \
  template void graph_t<V, E>::reserve(int64_t);                                              \
  template int64_t graph_t<V, E>::slot_capacity() const noexcept;                             \
  template int64_t graph_t<V, E>::in_slot_capacity() const noexcept;                          \
  template int64_t graph_t<V, E>::relayout_count() const noexcept;
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_ACCESS)

}  // namespace dyng
