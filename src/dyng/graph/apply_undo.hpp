// What graph_t::apply() records, when asked, so that graph_t::revert() can put the graph back
// exactly as it was before it: every row in the same slots, the free tails, the counts, the version
// and the re-layout count. dyng.update applies a batch and then repairs each result; when a repair
// is interrupted (Ctrl-C) or fails, the graph goes back with the results (python/dyng/_update.py).
//
// Per stored direction, the offsets and slots of every row the batch touches are copied before the
// first write. A row moved to the free tail leaves its old range as it was; a row rewritten in its
// range is put back from the copy. Only a re-layout (the free tail ran out, or a batch large enough
// to rebuild the direction) moves every row: the direction is then kept whole as it was just before
// (its arrays copied, at a re-layout's own cost), and the row copies put back the rows written
// before it. So a batch costs a copy of the rows it touches, which its write reads anyway.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace dyng {

template <class vid_t, class eid_t>
struct apply_undo_t {
  using direction_t = typename graph_t<vid_t, eid_t>::direction_t;

  /// One stored direction before the batch.
  struct direction_record_t {
    std::vector<vid_t> rows;  ///< Touched rows, in increasing order.
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
  vid_t num_vertices = 0;
  eid_t num_edges = 0;
  uint64_t version = 0;  ///< The version before the apply; revert() needs the graph one above.
  int64_t relayouts = 0;
  /// Set by the apply that filled the record; revert() clears it.
  bool recorded = false;
};

}  // namespace dyng
