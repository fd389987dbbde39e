// A graph's adjacency in device memory, with the same slotted layout as graph_t: per row a slot
// range [row_begin, row_capacity_end) of which [row_begin, row_end) is used, a free tail for rows
// that outgrow their range, and K weights per slot.
//
// Two ways keep it current. apply() takes a batch itself, from the host or already in device
// memory (stage()): it checks the batch (the checks of batch_validate.hpp, on the host for a
// host batch and from the staging kernel's facts for a device one, so the messages are
// graph_t's), then resolves the batch's semantics against its own rows and rewrites the touched
// rows, all on the device (device_apply.cu); the host graph it was made from is then behind, and
// download() returns a host graph equal to the device copy slot for slot. sync() is the older route
// for a host graph that applied the batch itself: it replays the host's recorded row edits
// (change_log.hpp's row_edits_t) on the device and uploads the rows the host recomposed or moved;
// only a host re-layout, vertex growth or a grown slot array makes it upload a direction whole.
//
// Memory: the device holds three offsets per row (row_begin, row_end, row_capacity_end), the
// column array and the K weights per slot of each stored direction; see bytes().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_workspace.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"
#include "dyng/graph/cuda/device_batch.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::cuda {

template <class vid_t, class eid_t>
class device_graph_t {
 public:
  /// Uploads `host` to `device`; copies are ordered on `stream` (a cudaStream_t, nullptr for the
  /// default stream) and finished when the constructor returns. Throws out_of_memory_error when
  /// the device cannot hold the graph, invalid_argument_error for an invisible device.
  device_graph_t(const graph_t<vid_t, eid_t>& host, int device, void* stream);

  device_graph_t(const device_graph_t&) = delete;
  device_graph_t& operator=(const device_graph_t&) = delete;

  /// What revert() needs to take back one apply() (defined below, after the storage it keeps).
  struct undo_t;

  /// Applies `batch` on the device, atomically: an invalid batch throws what graph_t::apply()
  /// throws and changes nothing. `log` receives the effective changes in processing order, as
  /// graph_t::apply() logs them (its slot-level row edits stay unrecorded). Returns the same
  /// summary as graph_t::apply() on an equal host graph; the rows hold the same slots in the
  /// same order, though not necessarily at the same offsets. Throws interrupted_error, changing
  /// nothing, when the calling thread's call is asked to stop before the write (cancel_scope_t).
  /// With `undo`, records what revert() needs to take the batch back.
  apply_summary_t apply(const edge_batch_t<vid_t>& batch, change_log_t<vid_t>* log,
                        undo_t* undo = nullptr);

  /// A batch in device memory (on this graph's device, ready on its stream) converted to this
  /// graph's types and checked for it, without a host copy (device_batch.hpp). Throws for bad
  /// shapes; every other fault is reported in the result (conversion, ids, below_one), for the
  /// caller to refuse the batch before apply() would.
  staged_batch_t<vid_t> stage(const device_batch_arrays_t& arrays) const;

  /// apply() for a staged batch whose conversion found no fault: the same checks, summary and
  /// log as for the batch on the host.
  apply_summary_t apply(const staged_batch_t<vid_t>& batch, change_log_t<vid_t>* log,
                        undo_t* undo = nullptr);

  /// Puts the graph back as it was before the apply() that filled `undo`, which must be the last
  /// change (else invalid_argument_error, nothing changed): the rows hold the same slots in the
  /// same order at the same offsets, and counts and version are the old ones. `undo` is spent.
  void revert(undo_t& undo);

  /// A host graph equal to this copy slot for slot (offsets, tail and all), at its version.
  graph_t<vid_t, eid_t> download() const;

  /// A copy on the same device and stream, made by device-to-device copies.
  std::unique_ptr<device_graph_t> clone() const;

  /// Brings the device copy level with `host` after `host.apply(batch, &log)`. `log` must come
  /// from the one apply since the last upload or sync (checked through the graph version).
  void sync(const graph_t<vid_t, eid_t>& host, const change_log_t<vid_t>& log);

  /// Device views (every pointer is device memory), valid until the next apply() or sync().
  adjacency_view_t<vid_t, eid_t> out_view() const noexcept;
  /// Throws not_supported_error when the graph keeps no in-edges.
  adjacency_view_t<vid_t, eid_t> in_view() const;

  int device() const noexcept { return device_; }
  vid_t num_vertices() const noexcept { return num_vertices_; }
  /// Stored directed edges, counted as graph_t counts them.
  eid_t num_edges() const noexcept { return num_edges_; }
  int num_weights() const noexcept { return num_weights_; }
  const graph_properties_t& properties() const noexcept { return props_; }
  bool has_transposed() const noexcept { return has_in_; }
  /// Slots allocated for the out-edges (used + spare + tail).
  int64_t slot_capacity() const noexcept { return out_.slots; }
  /// Full re-layouts of a direction that apply() performed (a tail ran out).
  int64_t device_relayouts() const noexcept { return device_relayouts_; }
  /// The re-layout count a host graph equal to this copy reports (the host's, then the device's).
  int64_t relayout_count() const noexcept { return host_relayouts_ + device_relayouts_; }
  void* stream() const noexcept { return stream_; }
  /// The graph version this copy is at: the host graph's after an upload or sync, +1 per apply().
  uint64_t version() const noexcept { return version_; }
  /// Device memory held, in bytes: the stored directions and the scratch apply() keeps between
  /// batches (device_workspace_t::k_kept_bytes at most).
  int64_t bytes() const noexcept;
  /// Whole-direction uploads so far (1 or 2 at construction); tests use it to tell an
  /// incremental sync from a full one.
  int64_t full_uploads() const noexcept { return full_uploads_; }
  /// Rows written by the last incremental sync (0 after a full upload), and of those, the ones
  /// copied whole from the host (the rest were rebuilt on the device from pieces).
  int64_t rows_synced() const noexcept { return rows_synced_; }
  int64_t rows_uploaded() const noexcept { return rows_uploaded_; }

 private:
  device_graph_t() = default;  // for clone()

  struct direction_t {
    ::dyng::cuda::device_buffer<eid_t> row_begin;
    ::dyng::cuda::device_buffer<eid_t> row_end;
    ::dyng::cuda::device_buffer<eid_t> row_capacity_end;
    ::dyng::cuda::device_buffer<vid_t> col;
    ::dyng::cuda::device_buffer<int32_t> weights;
    int64_t slots = 0;
    int64_t tail = 0;  ///< First never-used slot.
  };

 public:
  /// What revert() needs to take back one apply() (graph_t's apply_undo_t, in device memory):
  /// per stored direction, the offsets and slots of the rows the batch touches, copied before the
  /// write, and the storage the write replaced (a re-layout's, or the row arrays of a growth).
  struct undo_t {
    struct record_t {
      std::unique_ptr<direction_t> replaced;  ///< Storage the commit swapped out, if any.
      bool whole = false;                     ///< `replaced` is the whole direction.
      int64_t rows = 0;
      int64_t slots = 0;  ///< The touched rows' slots past their kept starts, in col and weights.
      /// One allocation that the arrays below point into: an update's apply allocates and frees
      /// one block per direction, not eight.
      ::dyng::cuda::device_buffer<unsigned char> storage;
      vid_t* row = nullptr;
      eid_t *begin = nullptr, *end = nullptr, *capacity_end = nullptr;
      /// Per row, the slots before the first one saved: the commit leaves them as they are.
      int64_t* kept = nullptr;
      int64_t* at = nullptr;  ///< rows + 1 offsets into col.
      vid_t* col = nullptr;
      int32_t* weights = nullptr;
      int64_t tail = 0;
    };
    record_t out, in;
    vid_t num_vertices = 0;
    eid_t num_edges = 0;
    uint64_t version = 0;  ///< Before the apply.
    int64_t device_relayouts = 0;
    bool recorded = false;
  };

 private:
  // device_apply.cu: what one apply() knows about its batch, and one direction's rewrite,
  // prepared in full before anything is written.
  struct apply_context_t;
  struct direction_plan_t;
  struct batch_input_t;  ///< A checked batch in device memory, with what its checks found.

  apply_summary_t apply_input(const batch_input_t& input, change_log_t<vid_t>* log, undo_t* undo);
  void reserve_record(direction_plan_t& plan);

  void resolve(const batch_input_t& input, apply_context_t& ctx, apply_summary_t& sum);
  void compact_operations(const batch_input_t& input, apply_context_t& ctx, bool with_log);
  void plan_rows(direction_plan_t* plans, int count, const apply_context_t& ctx);
  void sort_row_ops(direction_plan_t& plan, const apply_context_t& ctx);
  const int64_t* find_groups(direction_plan_t& plan, const apply_context_t& ctx);
  void describe_rows(direction_plan_t& plan, const int64_t* packed, const apply_context_t& ctx,
                     std::vector<const int64_t*>& totals);
  void compose_rows(direction_plan_t& plan, const apply_context_t& ctx);
  bool plan_layout(direction_plan_t& plan, const apply_context_t& ctx);
  void commit_direction(direction_plan_t& plan, const apply_context_t& ctx);
  typename graph_t<vid_t, eid_t>::direction_t download_direction(const direction_t& d) const;

  void upload_whole(direction_t& d, const typename graph_t<vid_t, eid_t>::direction_t& host,
                    int64_t n);
  void upload_rows(direction_t& d, const typename graph_t<vid_t, eid_t>::direction_t& host,
                   const std::vector<vid_t>& rows);
  void replay_rows(direction_t& d, const adjacency_view_t<vid_t, eid_t>& host,
                   const row_edits_t<vid_t>& edits);
  void sync_direction(direction_t& d, const typename graph_t<vid_t, eid_t>::direction_t& host,
                      const adjacency_view_t<vid_t, eid_t>& view, const row_edits_t<vid_t>& edits,
                      std::vector<vid_t>& touched);
  adjacency_view_t<vid_t, eid_t> view_of(const direction_t& d) const noexcept;
  bool needs_whole(const direction_t& d, int64_t host_slots) const noexcept;

  int device_ = 0;
  void* stream_ = nullptr;
  graph_properties_t props_;
  vid_t num_vertices_ = 0;
  eid_t num_edges_ = 0;
  int num_weights_ = 0;
  bool directed_ = true;
  bool has_in_ = false;
  uint64_t version_ = 0;
  int64_t host_relayouts_ = 0;
  int64_t full_uploads_ = 0;
  int64_t rows_synced_ = 0;
  int64_t rows_uploaded_ = 0;
  int64_t device_relayouts_ = 0;
  direction_t out_;
  direction_t in_;  ///< Empty for an undirected graph (its in-edges are its out-edges).
  /// Every apply() carves its scratch arrays (and its host staging) from here, a round each.
  device_workspace_t apply_workspace_;
};

/// Throws internal_error unless `graph` is level with `host` (an algorithm is about to read the
/// device copy of a graph whose batches the host applied). `fn` names the public call.
template <class vid_t, class eid_t>
void check_level(const graph_t<vid_t, eid_t>& host, const device_graph_t<vid_t, eid_t>& graph,
                 const char* fn) {
  if (graph.version() == host.version()) return;
  throw internal_error(std::string(fn) + ": the device copy of the graph is at version " +
                       std::to_string(graph.version()) + " but the graph is at " +
                       std::to_string(host.version()) + "; this is a bug in dyng");
}

}  // namespace dyng::cuda
