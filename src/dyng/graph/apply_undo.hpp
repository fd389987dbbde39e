// What graph_t::apply() records, when asked, so that graph_t::revert() can put the graph back
// exactly as it was before it: every row in the same slots, the free tails, the counts, the version
// and the re-layout count. dyng.update applies a batch and then repairs each result; when a repair
// is interrupted (Ctrl-C) or fails, the graph goes back with the results (python/dyng/_update.py).
//
// Two ways, by the graph's storage:
//  - Sorted rows without parallel edges (the default) hold each (u, v) once, in column order, so
//    the batch's inverse (each effective operation taken back, an erasure with the weights it
//    removed) gives the rows back exactly. The record costs a look-up per operation. revert()
//    writes the inverse as apply() writes a batch, so rows may end up at other offsets (what a
//    row holds, and the order, are the old ones; edges() is equal), and puts counts and version
//    back.
//  - Otherwise (append order, parallel edges: a slot's position is not given by its column), the
//    offsets and slots of every row the batch touches are copied before the first write. A row
//    moved to the free tail leaves its old range as it was; a row rewritten in its range is put
//    back from the copy. Only a re-layout (the free tail ran out, or a batch large enough to
//    rebuild the direction) moves every row: the direction is then kept whole as it was just
//    before, and the row copies put back the rows written before it. revert() then restores
//    every slot, offset and tail. This costs a copy of the rows the batch touches, which on a
//    graph with hub rows is far more than the batch.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dyng/graph/detail/compose.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng {

template <class vid_t, class eid_t>
struct apply_undo_t {
  using direction_t = typename graph_t<vid_t, eid_t>::direction_t;

  /// One stored direction before the batch.
  struct direction_record_t {
    std::vector<vid_t> rows;                      ///< Touched rows, in increasing order.
    std::vector<eid_t> begin, end, capacity_end;  ///< Their offsets, per row in `rows`.
    std::vector<int64_t> at;  ///< rows.size() + 1 offsets of their slots in cols.
    std::vector<vid_t> cols;
    std::vector<int32_t> weights;  ///< K per slot.
    eid_t tail = 0;
    /// The direction just before a re-layout of this apply, if one happened.
    std::optional<direction_t> whole;
  };

  direction_record_t out;
  direction_record_t in;
  /// True when the record is the batch's inverse (sorted rows without parallel edges).
  bool by_inverse = false;
  /// The inverse as resolved operations in key order (row = a key's first id), and the K
  /// weights of its insertions and reweights (widx).
  std::vector<detail::row_op_t<vid_t>> inverse;
  std::vector<int32_t> inverse_weights;
  vid_t num_vertices = 0;
  eid_t num_edges = 0;
  uint64_t version = 0;  ///< The version before the apply; revert() needs the graph one above.
  int64_t relayouts = 0;
  /// Set by the apply that filled the record; revert() clears it.
  bool recorded = false;
};

}  // namespace dyng
