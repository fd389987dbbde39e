// How a state holds its combined graph: the two CSRs a compute builds and searches, laid out as a
// dyng graph for the updates that edit it.
#pragma once

#include <cstdint>
#include <utility>

#include "dyng/backend/profile.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::mosp {

/// The combined graph: directed, in-edges stored, sorted rows, one weight column. Its edge ids
/// are int64 whatever the input graph's, so one state type serves every graph type.
template <class vid_t>
using combined_graph_t = graph_t<vid_t, int64_t>;

namespace detail {

/// The properties of every combined graph.
inline graph_properties_t combined_graph_properties() {
  graph_properties_t props;
  props.directed = true;
  props.store_transposed = true;  // sssp reads in-edges
  props.num_weights = 1;
  props.order = edge_order_t::sorted;
  return props;
}

/// The combined graph's two CSRs: the in-rows and their transpose, every row sorted.
template <class vid_t>
struct combined_csrs_t {
  csr_t<vid_t, int64_t> in, out;
};

/// A CSR read as an adjacency view (row v ends where row v + 1 begins).
template <class vid_t>
adjacency_view_t<vid_t, int64_t> view_of(const csr_t<vid_t, int64_t>& csr) {
  const int64_t n = static_cast<int64_t>(csr.row_ptr.size()) - 1;
  return {static_cast<vid_t>(n),  csr.num_weights, csr.row_ptr.data(),
          csr.row_ptr.data() + 1, csr.col.data(),  csr.weights.data()};
}

/// The combined graph as a state holds it. A compute builds the two CSRs and searches them as
/// they are; only an update edits the graph, so the CSRs are laid out as a dyng graph (spare
/// slots in every row of both directions, six n-sized offset arrays) when graph() is first
/// called. compute() calls it at its end, so that a result's first update costs what the later
/// ones do rather than paying the layout (several times a steady update; bench/README.md); a
/// state made otherwise (Result.from_arrays, a copy from the device) lays out on its first
/// update.
template <class vid_t>
class combined_store_t {
 public:
  combined_store_t() = default;
  explicit combined_store_t(combined_csrs_t<vid_t> csrs)
      : csrs_(std::move(csrs)), laid_out_(false) {}

  int64_t num_vertices() const {
    return laid_out_ ? static_cast<int64_t>(graph_.num_vertices())
                     : static_cast<int64_t>(csrs_.out.row_ptr.size()) - 1;
  }
  int64_t num_edges() const {
    return laid_out_ ? static_cast<int64_t>(graph_.num_edges())
                     : static_cast<int64_t>(csrs_.out.col.size());
  }
  adjacency_view_t<vid_t, int64_t> out_view() const {
    return laid_out_ ? graph_.out_view() : view_of(csrs_.out);
  }
  adjacency_view_t<vid_t, int64_t> in_view() const {
    return laid_out_ ? graph_.in_view() : view_of(csrs_.in);
  }

  /// The graph an update edits, laid out from the CSRs on `threads` threads the first time.
  combined_graph_t<vid_t>& graph(int threads) {
    if (!laid_out_) {
      const stage_scope_t stage("mosp.combined_layout");
      graph_ = combined_graph_t<vid_t>::from_transposed_csrs(csrs_.out, csrs_.in,
                                                             combined_graph_properties(), threads);
      csrs_ = {};
      laid_out_ = true;
    }
    return graph_;
  }

 private:
  combined_csrs_t<vid_t> csrs_;
  combined_graph_t<vid_t> graph_;
  bool laid_out_ = true;  // an empty graph until assigned
};

}  // namespace detail
}  // namespace dyng::mosp
