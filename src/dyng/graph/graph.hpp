// The dynamic graph: out-edges and (optionally) in-edges in slotted CSR form, K int32 weights per
// edge, and atomic batch application.
//
// Storage: each direction keeps one column array in which every row owns a contiguous slot range
// with some spare slots (`headroom`). A batch edits rows in place; a row that outgrows its range
// is moved to the free tail of the array; only when the tail is exhausted is the whole direction
// re-laid out (amortised O(1) per edge). So a small batch costs O(batch * degree), not O(m).
//
// Atomicity: apply() validates the whole batch and resolves its semantics against the current
// graph before it writes anything; an invalid batch throws and leaves the graph untouched.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dyng/backend/execution.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/core/zeroed_array.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/properties.hpp"

namespace dyng {

/// A batch of edge changes in the graph's own id type. Insertion weights are K per insertion,
/// insertion-major; an empty weight span is allowed only when there are no insertions or K == 0.
template <class vid_t>
struct edge_batch_t {
  std::span<const vid_t> insert_src;
  std::span<const vid_t> insert_dst;
  std::span<const int32_t> insert_weights;
  int num_weights = 0;
  std::span<const vid_t> delete_src;
  std::span<const vid_t> delete_dst;
};

/// What revert() needs to undo one apply() (graph/apply_undo.hpp).
template <class vid_t, class eid_t>
struct apply_undo_t;

/// A compact CSR copy (Graph.to_csr()): row_ptr has n + 1 entries, weights K per edge.
template <class vid_t, class eid_t>
struct csr_t {
  std::vector<eid_t> row_ptr;
  std::vector<vid_t> col;
  std::vector<int32_t> weights;
  int num_weights = 0;
};

template <class vid_t, class eid_t>
class graph_t {
 public:
  using vertex_type = vid_t;
  using edge_type = eid_t;

  /// Builds from an edge list. `weights` holds K = props.num_weights values per edge. Ids must lie
  /// in [0, num_vertices). Repeated (u, v) are merged (first position, last weight) unless
  /// parallel edges are allowed; an undirected graph stores each edge in both directions.
  /// Between its passes over the edges it throws interrupted_error once `cancel` asks.
  static graph_t from_edges(vid_t num_vertices, std::span<const vid_t> src,
                            std::span<const vid_t> dst, std::span<const int32_t> weights,
                            const graph_properties_t& props, cancel_token_t cancel = {});

  /// Builds from a CSR. An undirected CSR must already be symmetric (checked). `cancel` as for
  /// from_edges().
  static graph_t from_csr(std::span<const eid_t> row_ptr, std::span<const vid_t> col,
                          std::span<const int32_t> weights, const graph_properties_t& props,
                          cancel_token_t cancel = {});

  /// Internal, for graphs an algorithm derives (mosp's combined graph): a directed graph with
  /// in-edges from both directions as compact CSRs, `in` exactly the transpose of `out` and every
  /// row sorted by neighbour without repeats, so nothing is left to sort or merge. Rows are laid
  /// out as from_edges() lays them out (headroom, free tail, empty rows without slots). Only the
  /// shapes and properties are checked (internal_error); check_integrity() verifies the rest.
  /// `threads` > 1 lays the rows out on an OpenMP team.
  static graph_t from_transposed_csrs(const csr_t<vid_t, eid_t>& out, const csr_t<vid_t, eid_t>& in,
                                      const graph_properties_t& props, int threads = 1);

  /// Applies a batch atomically and returns its counters. When `log` is given it receives the
  /// effective edge changes, and the row edits too if `log->record_row_edits` is set. Throws
  /// invalid_argument_error / not_supported_error and changes nothing if the batch is invalid under
  /// the graph's semantics. With an OpenMP `exec`, a large batch
  /// (apply_tuning_t::parallel_min_changes entries) is resolved and written on the team that
  /// host_team_size() grants; graph, summary and log are the same for every team. Throws
  /// interrupted_error, changing nothing, when exec.cancel asks before the first write. With
  /// `undo`, records what revert() needs to take the batch back.
  apply_summary_t apply(const edge_batch_t<vid_t>& batch, change_log_t<vid_t>* log = nullptr,
                        const execution_t& exec = {}, apply_undo_t<vid_t, eid_t>* undo = nullptr);

  /// Puts the graph back as it was before the apply() that filled `undo`, which must be the last
  /// change to the graph (else invalid_argument_error, nothing changed): every row holds the
  /// same slots in the same order, and counts and version are the old ones. From row copies
  /// (append order, parallel edges) the offsets and tails are the old ones too and nothing is
  /// allocated; from the batch's inverse (sorted rows without parallel edges) rows may sit at
  /// other offsets, and a re-layout could need memory (std::bad_alloc). `undo` is spent.
  void revert(apply_undo_t<vid_t, eid_t>& undo);

  vid_t num_vertices() const noexcept;
  /// Stored directed edges (an undirected edge counts twice, a self-loop once).
  eid_t num_edges() const noexcept;
  int num_weights() const noexcept;
  /// +1 per successful apply().
  uint64_t version() const noexcept;
  const graph_properties_t& properties() const noexcept;
  bool has_transposed() const noexcept;

  adjacency_view_t<vid_t, eid_t> out_view() const noexcept;
  /// In-edges; throws not_supported_error when the graph was built without them. An undirected
  /// graph is its own transpose and returns its out-edge view (one stored copy).
  adjacency_view_t<vid_t, eid_t> in_view() const;

  csr_t<vid_t, eid_t> to_csr() const;
  /// Edge list in CSR order: (src, dst, weights K per edge).
  void edges(std::vector<vid_t>& src, std::vector<vid_t>& dst, std::vector<int32_t>& weights) const;
  /// Adds isolated vertices up to `n` (no-op when the graph has as many); +1 version. For graphs
  /// that follow another graph's vertex set (mosp's combined graph), where a batch would only
  /// grow the vertex set as far as its largest id. With `undo`, records what revert() needs to
  /// take the growth back (`undo->recorded` stays false when nothing grew).
  void grow_vertices(vid_t n, apply_undo_t<vid_t, eid_t>* undo = nullptr);
  /// Makes room for `edge_capacity` stored edges per direction without relayout later.
  void reserve(int64_t edge_capacity);
  /// Verifies every storage invariant; throws internal_error naming the first violation.
  void check_integrity() const;

  /// Slots allocated per direction (used + spare), for tests and the relayout benchmark.
  int64_t slot_capacity() const noexcept;
  /// Slots allocated for the in-edges: the length of in_view()'s column array (the out-edge
  /// count for an undirected graph, whose in_view() is its out_view(); 0 without in-edges).
  int64_t in_slot_capacity() const noexcept;
  /// How many times a direction was re-laid out in full since construction (tail exhausted,
  /// reserve(), or the compact rebuild that apply() uses for batches of more than half the edges).
  int64_t relayout_count() const noexcept;

  /// One stored direction, slot by slot. Public for the device copy of a graph, which uploads
  /// it whole and, once it applies batches itself, hands one back (device_graph_t::download()).
  /// A row that never had edges keeps offsets (0, 0, 0), on pages nobody writes
  /// (core/zeroed_array.hpp): isolated vertices cost no memory.
  struct direction_t {
    zeroed_array<eid_t> row_begin;
    zeroed_array<eid_t> row_end;
    zeroed_array<eid_t> row_capacity_end;
    std::vector<vid_t> col;
    std::vector<int32_t> weights;
    eid_t tail = 0;  ///< First never-used slot; rows that outgrow their range move here.
  };

  /// The out-edge storage, and the in-edge storage (empty unless directed with in-edges).
  const direction_t& out_storage() const noexcept { return out_; }
  const direction_t& in_storage() const noexcept { return in_; }

  /// A graph from storage that a device copy laid out (every invariant of check_integrity()
  /// must already hold; the caller checks in tests). `in` is empty unless the graph is directed
  /// with in-edges. Version and re-layout count continue those of the device copy.
  static graph_t from_storage(direction_t out, direction_t in, vid_t num_vertices, eid_t num_edges,
                              const graph_properties_t& props, uint64_t version, int64_t relayouts);

  /// For a host shell of a device copy (rows of zero pages, no slots; see from_storage()): the
  /// counts, version and re-layout count of the copy after an apply or revert that kept its
  /// vertex count. Rebuilding the shell would map and unmap its row arrays again every batch.
  void follow_device_copy(eid_t num_edges, uint64_t version, int64_t relayouts) noexcept {
    num_edges_ = num_edges;
    version_ = version;
    relayouts_ = relayouts;
  }

 private:
  adjacency_view_t<vid_t, eid_t> view_of(const direction_t& d) const noexcept;
  /// Starts `undo` for a change about to be made: the counts, version and free tails as they are.
  void start_undo(apply_undo_t<vid_t, eid_t>& undo) const;
  /// Puts back the row copies `undo` recorded, whatever the graph's version (revert() checks it).
  void restore(apply_undo_t<vid_t, eid_t>& undo) noexcept;
  /// The writes of apply(): resolved operations `ops` (key order; reordered here) with the
  /// weights of `batch_weights`, on every stored direction grown to `n_after` rows; the log's row
  /// edits when it asks; with `snapshot`, the touched rows copied first and the writes stopped
  /// (put back, interrupted_error) once `cancel` asks. Adds re-layouts to relayouts_.
  /// (graph_apply.cpp; `ops_t` is a vector of its row operations.)
  template <class ops_t>
  void write_ops(ops_t& ops, const int32_t* batch_weights, int64_t n_after,
                 change_log_t<vid_t>* log, int team, apply_undo_t<vid_t, eid_t>* snapshot,
                 cancel_token_t cancel);
  /// Fills `undo` with the inverse of `ops` (apply_undo.hpp), on `team` threads.
  template <class ops_t>
  void record_inverse(const ops_t& ops, const int32_t* batch_weights, int team,
                      apply_undo_t<vid_t, eid_t>& undo) const;
  /// revert() from the batch's inverse (graph_apply.cpp, next to write_ops()).
  void revert_by_inverse(apply_undo_t<vid_t, eid_t>& undo);

  direction_t out_;
  direction_t in_;
  graph_properties_t props_;
  vid_t num_vertices_ = 0;
  eid_t num_edges_ = 0;
  uint64_t version_ = 0;
  int64_t relayouts_ = 0;
};

/// The in-edges of a graph as an algorithm reads them: the stored transpose, or the out-edges of
/// an undirected graph (its own transpose, whether or not it was built with store_transposed).
/// `graph` is a graph_t or its device copy; `directed` is the graph's property.
template <class graph_like_t>
auto in_edges_view(const graph_like_t& graph, bool directed) {
  return directed ? graph.in_view() : graph.out_view();
}

/// Throws invalid_argument_error when `graph` is directed and keeps no in-edges, which
/// `algorithm` reads; `fn` names the public call.
template <class vid_t, class eid_t>
void require_in_edges(const graph_t<vid_t, eid_t>& graph, const char* fn, const char* algorithm) {
  if (!graph.properties().directed || graph.has_transposed()) return;
  throw invalid_argument_error(std::string(fn) + ": the graph keeps no in-edges, which " +
                               algorithm + " reads; build it with store_transposed=True");
}

}  // namespace dyng
