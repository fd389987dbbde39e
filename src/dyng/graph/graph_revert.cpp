// graph_t::revert(): an apply() taken back from its undo record (graph/apply_undo.hpp).
#include <string>

#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/graph/apply_undo.hpp"
#include "dyng/graph/detail/undo_rows.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng {

template <class vid_t, class eid_t>
void graph_t<vid_t, eid_t>::revert(apply_undo_t<vid_t, eid_t>& undo) {
  if (!undo.recorded || version_ != undo.version + 1) {
    throw invalid_argument_error(
        "Graph.revert(): the undo record " +
        (undo.recorded ? "is of the apply to version " + std::to_string(undo.version + 1)
                       : std::string("holds no apply")) +
        " but the graph is at version " + std::to_string(version_) +
        "; revert right after the apply that filled the record");
  }
  if (undo.by_inverse) {
    revert_by_inverse(undo);
  } else {
    restore(undo);
  }
}

template <class vid_t, class eid_t>
void graph_t<vid_t, eid_t>::restore(apply_undo_t<vid_t, eid_t>& undo) noexcept {
  const int64_t rows_before = undo.num_vertices;
  detail::restore_direction(out_, undo.out, props_.num_weights, rows_before);
  if (props_.directed && props_.store_transposed) {
    detail::restore_direction(in_, undo.in, props_.num_weights, rows_before);
  }
  num_vertices_ = undo.num_vertices;
  num_edges_ = undo.num_edges;
  version_ = undo.version;
  relayouts_ = undo.relayouts;
  undo.recorded = false;
}

#define DYNG_INSTANTIATE_REVERT(V, E)                       \
  template void graph_t<V, E>::revert(apply_undo_t<V, E>&); \
  template void graph_t<V, E>::restore(apply_undo_t<V, E>&) noexcept;
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_REVERT)
#undef DYNG_INSTANTIATE_REVERT

}  // namespace dyng
