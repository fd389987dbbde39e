// A graph's adjacency in device memory, kept equal to its host graph_t batch after batch.
//
// The host graph_t stays the authority: apply() resolves a batch's semantics there (duplicates,
// upserts, ignored deletions, the error modes) and validates it whole before writing, which is
// what makes an invalid batch change nothing. sync() then applies the same row edits on the
// device: apply() records each in-place row edit as pieces (runs of old slots and new literal
// slots, change_log.hpp's row_edits_t), and the device rebuilds those rows from its own old
// slots, so a hub row that lost one edge costs a few moved slots, not a PCIe copy of the row.
// Rows the host recomposed or moved to its free tail go up whole, in one packed copy and one
// scatter kernel. Rows keep their slots on both sides. Only a host re-layout, vertex growth or a
// grown slot array makes sync() upload a direction whole.
//
// Memory: the device holds row_begin/row_end (n offsets each), the column array and the K
// weights per slot of each stored direction; see bytes().
#pragma once

#include <cstdint>
#include <string>

#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/adjacency_view.hpp"
#include "dyng/graph/change_log.hpp"
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

  /// Brings the device copy level with `host` after `host.apply(batch, &log)`. `log` must come
  /// from the one apply since the last upload or sync (checked through the graph version).
  void sync(const graph_t<vid_t, eid_t>& host, const change_log_t<vid_t>& log);

  /// Device views (every pointer is device memory), valid until the next sync().
  adjacency_view_t<vid_t, eid_t> out_view() const noexcept;
  /// Throws not_supported_error when the graph keeps no in-edges.
  adjacency_view_t<vid_t, eid_t> in_view() const;

  int device() const noexcept { return device_; }
  void* stream() const noexcept { return stream_; }
  /// The host graph version this copy equals.
  uint64_t version() const noexcept { return version_; }
  /// Device memory held, in bytes.
  int64_t bytes() const noexcept;
  /// Whole-direction uploads so far (1 or 2 at construction); tests use it to tell an
  /// incremental sync from a full one.
  int64_t full_uploads() const noexcept { return full_uploads_; }
  /// Rows written by the last incremental sync (0 after a full upload), and of those, the ones
  /// copied whole from the host (the rest were rebuilt on the device from pieces).
  int64_t rows_synced() const noexcept { return rows_synced_; }
  int64_t rows_uploaded() const noexcept { return rows_uploaded_; }

 private:
  struct direction_t {
    ::dyng::cuda::device_buffer<eid_t> row_begin;
    ::dyng::cuda::device_buffer<eid_t> row_end;
    ::dyng::cuda::device_buffer<vid_t> col;
    ::dyng::cuda::device_buffer<int32_t> weights;
    int64_t slots = 0;
  };

  void upload_whole(direction_t& d, const adjacency_view_t<vid_t, eid_t>& host, int64_t slots);
  void upload_rows(direction_t& d, const adjacency_view_t<vid_t, eid_t>& host,
                   const std::vector<vid_t>& rows);
  void replay_rows(direction_t& d, const adjacency_view_t<vid_t, eid_t>& host,
                   const row_edits_t<vid_t>& edits);
  void sync_direction(direction_t& d, const adjacency_view_t<vid_t, eid_t>& host,
                      const row_edits_t<vid_t>& edits, std::vector<vid_t>& touched);
  adjacency_view_t<vid_t, eid_t> view_of(const direction_t& d) const noexcept;
  bool needs_whole(const direction_t& d, int64_t host_slots) const noexcept;

  int device_ = 0;
  void* stream_ = nullptr;
  vid_t num_vertices_ = 0;
  int num_weights_ = 0;
  bool directed_ = true;
  bool has_in_ = false;
  uint64_t version_ = 0;
  int64_t host_relayouts_ = 0;
  int64_t full_uploads_ = 0;
  int64_t rows_synced_ = 0;
  int64_t rows_uploaded_ = 0;
  direction_t out_;
  direction_t in_;  ///< Empty for an undirected graph (its in-edges are its out-edges).
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
