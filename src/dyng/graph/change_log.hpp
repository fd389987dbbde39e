// What a batch really changed in a graph, as seen by dynamic algorithms.
//
// Graph::apply fills it after the batch's semantics have been resolved (duplicates merged,
// ignored deletions dropped, self-loops handled), so an algorithm's update sees only effective
// edge changes. An undirected graph records both directions.
#pragma once

#include <cstdint>
#include <vector>

namespace dyng {

enum class edge_change_kind_t : uint8_t {
  inserted,    ///< A new (u, v) slot now exists.
  deleted,     ///< A (u, v) slot was removed (with parallel edges, another (u, v) may remain).
  reweighted,  ///< An existing (u, v) slot got new weights (possibly equal to the old ones).
};

template <class vid_t>
struct edge_change_t {
  vid_t src;
  vid_t dst;
  edge_change_kind_t kind;
};

/// How apply() rewrote the rows of one stored direction, in slot terms. A device copy of the
/// graph (cuda::device_graph_t) replays this instead of copying whole rows: a hub row of 10^5
/// slots that lost one edge costs a few moved slots, not the row.
///
/// A row edited in place keeps its first slot; its new content is a list of pieces, each either
/// a run of the row's old slots or a run of literal slots (new or reweighted edges) recorded
/// here. Rows apply() recomposed or moved are listed in `rewritten`; their content is the host's.
template <class vid_t>
struct row_edits_t {
  struct piece_t {
    int64_t length;  ///< Slots in the run.
    int64_t source;  ///< >= 0: first old slot, relative to the row's first slot; < 0: literal
                     ///< index -(source + 1).
    int64_t dest;    ///< First new slot, relative to the row's first slot.
  };
  std::vector<vid_t> rows;           ///< Rows edited in place, in increasing order.
  std::vector<int64_t> new_size;     ///< Per row in `rows`.
  std::vector<int64_t> piece_begin;  ///< rows.size() + 1 offsets into `pieces`.
  std::vector<piece_t> pieces;
  std::vector<vid_t> literal_cols;
  std::vector<int32_t> literal_weights;  ///< K per literal slot.
  std::vector<vid_t> rewritten;          ///< Rows recomposed or moved to the free tail.
  /// False when nothing was recorded (no log was asked for, or the direction was rebuilt).
  bool recorded = false;

  void clear() {
    rows.clear();
    new_size.clear();
    piece_begin.assign(1, 0);
    pieces.clear();
    literal_cols.clear();
    literal_weights.clear();
    rewritten.clear();
    recorded = false;
  }
};

template <class vid_t>
struct change_log_t {
  vid_t num_vertices_before = 0;
  vid_t num_vertices_after = 0;
  std::vector<edge_change_t<vid_t>> changes;
  /// Slot-level record of the out-edge and in-edge rows (in_edits stays unrecorded for graphs
  /// without a separate in-edge direction), filled only when record_row_edits is set.
  row_edits_t<vid_t> out_edits;
  row_edits_t<vid_t> in_edits;
  /// Set before Graph::apply() when a device copy will replay the batch (device_graph_t::sync).
  /// Host algorithms read `changes` only, and recording the edits costs a host apply about a
  /// quarter of its time on a large batch (R-MAT 22, 100,000 changes), so it is opt-in. Without
  /// the edits a sync copies every row the changes name. clear() keeps this setting.
  bool record_row_edits = false;

  void clear() {
    changes.clear();
    num_vertices_before = num_vertices_after = 0;
    out_edits.clear();
    in_edits.clear();
  }
};

}  // namespace dyng
