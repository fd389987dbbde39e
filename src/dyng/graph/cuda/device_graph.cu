// device_graph_t: whole uploads and the incremental, change-log driven sync (design in the header).
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/graph/cuda/packed_blob.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/core/log.hpp"
#include "dyng/graph/cuda/row_scatter.cuh"

namespace dyng::cuda {
namespace {

/// The apply workspace's first device block for a graph of `storage` bytes: a small batch's
/// scratch grows with the rows it touches (a batch of 1,000 changes on R-MAT 22 composes hub
/// rows of up to 10^5 slots), so a block of 1/64 of the graph (1 to 64 MiB) lets a graph's first
/// apply allocate nothing, as the later ones do.
std::size_t first_workspace_bytes(int64_t storage) {
  constexpr int64_t k_least = int64_t{1} << 20, k_most = int64_t{64} << 20;
  return static_cast<std::size_t>(std::clamp(storage / 64, k_least, k_most));
}

}  // namespace

template <class vid_t, class eid_t>
device_graph_t<vid_t, eid_t>::device_graph_t(const graph_t<vid_t, eid_t>& host, int device,
                                             void* stream)
    : device_(device),
      stream_(stream),
      props_(host.properties()),
      num_vertices_(host.num_vertices()),
      num_edges_(host.num_edges()),
      num_weights_(host.num_weights()),
      directed_(host.properties().directed),
      has_in_(host.has_transposed()),
      version_(host.version()),
      host_relayouts_(host.relayout_count()) {
  device_scope_t scope(device);
  upload_whole(out_, host.out_storage(), num_vertices_);
  if (has_in_ && directed_) upload_whole(in_, host.in_storage(), num_vertices_);
  apply_workspace_.reserve(first_workspace_bytes(bytes()));
  synchronize(stream_);
  ::dyng::log(log_level_t::info, [&] {
    return "Graph: " + std::to_string(num_vertices_) + " vertices and " +
           std::to_string(static_cast<int64_t>(num_edges_)) + " edges uploaded to CUDA device " +
           std::to_string(device_) + " (" + std::to_string(bytes() >> 20) + " MiB)";
  });
}

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::upload_whole(
    direction_t& d, const typename graph_t<vid_t, eid_t>::direction_t& host, int64_t n_rows) {
  const stage_scope_t upload_stage("graph.upload_direction");
  // Long-lived buffers are allocated and freed on the default stream, not the caller's: a user
  // stream may be destroyed before the graph is, and a free ordered on a dead stream would leak.
  const auto n = static_cast<size_t>(n_rows);
  const auto k = static_cast<size_t>(num_weights_);
  const auto slots = host.col.size();
  d = direction_t{};
  d.row_begin = device_buffer<eid_t>(n);
  d.row_end = device_buffer<eid_t>(n);
  d.row_capacity_end = device_buffer<eid_t>(n);
  d.col = device_buffer<vid_t>(slots);
  d.weights = device_buffer<int32_t>(slots * k);
  d.slots = static_cast<int64_t>(slots);
  d.tail = static_cast<int64_t>(host.tail);
  // The copies go on the graph's stream, which the callers wait for; it must first see the
  // allocations, made on the default stream (a non-blocking stream is not ordered after it: the
  // copies went there, and a search on the graph's stream could read rows not yet copied).
  synchronize(nullptr);
  copy_to_device(d.row_begin.data(), host.row_begin.data(), n * sizeof(eid_t), stream_);
  copy_to_device(d.row_end.data(), host.row_end.data(), n * sizeof(eid_t), stream_);
  copy_to_device(d.row_capacity_end.data(), host.row_capacity_end.data(), n * sizeof(eid_t),
                 stream_);
  copy_to_device(d.col.data(), host.col.data(), slots * sizeof(vid_t), stream_);
  if (k > 0)
    copy_to_device(d.weights.data(), host.weights.data(), slots * k * sizeof(int32_t), stream_);
  ++full_uploads_;
}

template <class vid_t, class eid_t>
std::unique_ptr<device_graph_t<vid_t, eid_t>> device_graph_t<vid_t, eid_t>::clone() const {
  device_scope_t scope(device_);
  std::unique_ptr<device_graph_t> copy(new device_graph_t());
  copy->device_ = device_;
  copy->stream_ = stream_;
  copy->props_ = props_;
  copy->num_vertices_ = num_vertices_;
  copy->num_edges_ = num_edges_;
  copy->num_weights_ = num_weights_;
  copy->directed_ = directed_;
  copy->has_in_ = has_in_;
  copy->version_ = version_;
  copy->host_relayouts_ = host_relayouts_;
  copy->device_relayouts_ = device_relayouts_;
  auto duplicate = [&](const auto& from, auto& into) {
    using T = typename std::decay_t<decltype(from)>::value_type;
    into = device_buffer<T>(from.size());  // long-lived: the default stream (see upload_whole)
    synchronize(nullptr);                  // ... which the graph's stream must see first
    if (from.size() > 0) {
      copy_on_device(into.data(), from.data(), from.size() * sizeof(T), stream_);
    }
  };
  for (auto [from, into] : {std::pair{&out_, &copy->out_}, std::pair{&in_, &copy->in_}}) {
    duplicate(from->row_begin, into->row_begin);
    duplicate(from->row_end, into->row_end);
    duplicate(from->row_capacity_end, into->row_capacity_end);
    duplicate(from->col, into->col);
    duplicate(from->weights, into->weights);
    into->slots = from->slots;
    into->tail = from->tail;
  }
  copy->apply_workspace_.reserve(first_workspace_bytes(copy->bytes()));
  synchronize(stream_);
  return copy;
}

template <class vid_t, class eid_t>
bool device_graph_t<vid_t, eid_t>::needs_whole(const direction_t& d,
                                               int64_t host_slots) const noexcept {
  return host_slots != d.slots;
}

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::upload_rows(
    direction_t& d, const typename graph_t<vid_t, eid_t>::direction_t& host,
    const std::vector<vid_t>& rows) {
  d.tail = static_cast<int64_t>(host.tail);
  if (rows.empty()) return;
  const int k = num_weights_;
  std::vector<eid_t> begin(rows.size());
  std::vector<eid_t> end(rows.size());
  std::vector<eid_t> capacity_end(rows.size());
  std::vector<int64_t> offset(rows.size() + 1, 0);
  for (size_t i = 0; i < rows.size(); ++i) {
    begin[i] = host.row_begin[rows[i]];
    end[i] = host.row_end[rows[i]];
    capacity_end[i] = host.row_capacity_end[rows[i]];
    offset[i + 1] = offset[i] + static_cast<int64_t>(end[i] - begin[i]);
  }
  const auto slots = static_cast<size_t>(offset.back());
  std::vector<vid_t> col(slots);
  std::vector<int32_t> weights(slots * static_cast<size_t>(k));
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto length = static_cast<size_t>(end[i] - begin[i]);
    std::memcpy(col.data() + offset[i], host.col.data() + begin[i], length * sizeof(vid_t));
    if (k > 0) {
      std::memcpy(weights.data() + offset[i] * k,
                  host.weights.data() + static_cast<int64_t>(begin[i]) * k,
                  length * k * sizeof(int32_t));
    }
  }
  detail::packed_arrays_t packed;
  const size_t at_vertex = packed.add(rows.data(), rows.size());
  const size_t at_begin = packed.add(begin.data(), begin.size());
  const size_t at_end = packed.add(end.data(), end.size());
  const size_t at_capacity_end = packed.add(capacity_end.data(), capacity_end.size());
  const size_t at_offset = packed.add(offset.data(), offset.size());
  const size_t at_col = packed.add(col.data(), col.size());
  const size_t at_weights = packed.add(weights.data(), weights.size());
  std::vector<unsigned char> blob(packed.size());
  packed.write_to(blob.data());

  device_buffer<unsigned char> staging(blob.size(), stream_);
  staging.copy_from_host(blob.data(), blob.size());
  const unsigned char* base = staging.data();
  detail::packed_rows_t<vid_t, eid_t> pack;
  pack.count = static_cast<int64_t>(rows.size());
  pack.vertex = reinterpret_cast<const vid_t*>(base + at_vertex);
  pack.begin = reinterpret_cast<const eid_t*>(base + at_begin);
  pack.end = reinterpret_cast<const eid_t*>(base + at_end);
  pack.capacity_end = reinterpret_cast<const eid_t*>(base + at_capacity_end);
  pack.offset = reinterpret_cast<const int64_t*>(base + at_offset);
  pack.col = reinterpret_cast<const vid_t*>(base + at_col);
  pack.weights = k > 0 ? reinterpret_cast<const int32_t*>(base + at_weights) : nullptr;
  const int64_t warps_wanted = pack.count;
  const auto blocks = static_cast<unsigned>(
      std::min<int64_t>((warps_wanted * 32 + k_block_threads - 1) / k_block_threads, 65535));
  detail::scatter_rows_kernel<vid_t, eid_t>
      <<<blocks, k_block_threads, 0, static_cast<cudaStream_t>(stream_)>>>(
          pack, k, d.row_begin.data(), d.row_end.data(), d.row_capacity_end.data(), d.col.data(),
          d.weights.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  rows_synced_ += pack.count;
  rows_uploaded_ += pack.count;
  // The staging buffer is freed stream-ordered after the kernel: no wait needed here.
}

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::replay_rows(direction_t& d,
                                               const adjacency_view_t<vid_t, eid_t>& host,
                                               const row_edits_t<vid_t>& edits) {
  if (edits.rows.empty()) return;
  // Runs longer than this are split, so one hub row spreads over many blocks.
  constexpr int64_t k_run_chunk = 8192;
  const int k = num_weights_;
  std::vector<detail::slot_run_t> gather;   // device row slots -> scratch
  std::vector<detail::slot_run_t> scatter;  // scratch -> device row slots
  std::vector<detail::slot_run_t> literal;  // uploaded literals -> device row slots
  auto add = [&](std::vector<detail::slot_run_t>& runs, int64_t source, int64_t dest,
                 int64_t length) {
    for (int64_t at = 0; at < length; at += k_run_chunk) {
      runs.push_back({source + at, dest + at, std::min(k_run_chunk, length - at)});
    }
  };
  // Pieces are relative to the row's first slot, which an in-place edit keeps: the host graph's
  // row_begin turns them into slot indices.
  std::vector<eid_t> row_begin(edits.rows.size());
  std::vector<eid_t> row_end(edits.rows.size());
  int64_t scratch_slots = 0;
  for (size_t r = 0; r < edits.rows.size(); ++r) {
    row_begin[r] = host.row_begin[edits.rows[r]];
    row_end[r] = static_cast<eid_t>(row_begin[r] + edits.new_size[r]);
    for (int64_t p = edits.piece_begin[r]; p < edits.piece_begin[r + 1]; ++p) {
      const auto& piece = edits.pieces[p];
      const int64_t dest = static_cast<int64_t>(row_begin[r]) + piece.dest;
      if (piece.source < 0) {
        add(literal, -(piece.source + 1), dest, piece.length);
      } else if (piece.source != piece.dest) {  // runs that stay put need no copy
        add(gather, static_cast<int64_t>(row_begin[r]) + piece.source, scratch_slots, piece.length);
        add(scatter, scratch_slots, dest, piece.length);
        scratch_slots += piece.length;
      }
    }
  }
  detail::packed_arrays_t packed;
  const size_t at_gather = packed.add(gather.data(), gather.size());
  const size_t at_scatter = packed.add(scatter.data(), scatter.size());
  const size_t at_literal = packed.add(literal.data(), literal.size());
  const size_t at_cols = packed.add(edits.literal_cols.data(), edits.literal_cols.size());
  const size_t at_weights = packed.add(edits.literal_weights.data(), edits.literal_weights.size());
  const size_t at_rows = packed.add(edits.rows.data(), edits.rows.size());
  const size_t at_ends = packed.add(row_end.data(), row_end.size());
  std::vector<unsigned char> blob(packed.size());
  packed.write_to(blob.data());
  device_buffer<unsigned char> staging(blob.size(), stream_);
  staging.copy_from_host(blob.data(), blob.size());
  const unsigned char* base = staging.data();
  device_buffer<vid_t> scratch_col(static_cast<size_t>(scratch_slots), stream_);
  device_buffer<int32_t> scratch_w(static_cast<size_t>(scratch_slots) * k, stream_);
  const auto s = static_cast<cudaStream_t>(stream_);
  auto copy_runs = [&](size_t at, size_t count, const vid_t* src_col, const int32_t* src_w,
                       vid_t* dst_col, int32_t* dst_w) {
    if (count == 0) return;
    const auto blocks = static_cast<unsigned>(std::min<size_t>(count, 65535));
    detail::copy_runs_kernel<vid_t><<<blocks, k_block_threads, 0, s>>>(
        reinterpret_cast<const detail::slot_run_t*>(base + at), static_cast<int64_t>(count),
        src_col, src_w, dst_col, dst_w, k);
    DYNG_CUDA_CHECK(cudaGetLastError());
  };
  // Gather every moving run before any scatter overwrites it (same stream: ordered).
  copy_runs(at_gather, gather.size(), d.col.data(), d.weights.data(), scratch_col.data(),
            scratch_w.data());
  copy_runs(at_scatter, scatter.size(), scratch_col.data(), scratch_w.data(), d.col.data(),
            d.weights.data());
  copy_runs(at_literal, literal.size(), reinterpret_cast<const vid_t*>(base + at_cols),
            reinterpret_cast<const int32_t*>(base + at_weights), d.col.data(), d.weights.data());
  const auto rows = static_cast<int64_t>(edits.rows.size());
  detail::set_row_ends_kernel<vid_t, eid_t>
      <<<static_cast<unsigned>(std::min<int64_t>((rows + 255) / 256, 65535)), 256, 0, s>>>(
          reinterpret_cast<const vid_t*>(base + at_rows),
          reinterpret_cast<const eid_t*>(base + at_ends), rows, d.row_end.data());
  DYNG_CUDA_CHECK(cudaGetLastError());
  rows_synced_ += rows;
}

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::sync_direction(
    direction_t& d, const typename graph_t<vid_t, eid_t>::direction_t& host,
    const adjacency_view_t<vid_t, eid_t>& view, const row_edits_t<vid_t>& edits,
    std::vector<vid_t>& touched) {
  if (!edits.recorded) {
    // No slot-level record: copy every row the change log names.
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    upload_rows(d, host, touched);
    return;
  }
  replay_rows(d, view, edits);
  upload_rows(d, host, edits.rewritten);
}

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::sync(const graph_t<vid_t, eid_t>& host,
                                        const change_log_t<vid_t>& log) {
  if (host.version() == version_) return;
  const stage_scope_t sync_stage("graph.sync_device");
  if (host.version() != version_ + 1) {
    throw invalid_argument_error("device_graph_t::sync(): the device copy is at graph version " +
                                 std::to_string(version_) + " but the host graph is at " +
                                 std::to_string(host.version()) +
                                 "; sync after every apply, or rebuild the device copy");
  }
  device_scope_t scope(device_);
  rows_synced_ = 0;
  rows_uploaded_ = 0;
  const bool whole = host.num_vertices() != num_vertices_ ||
                     host.relayout_count() != host_relayouts_ + device_relayouts_ ||
                     needs_whole(out_, host.slot_capacity()) ||
                     (has_in_ && directed_ && needs_whole(in_, host.in_slot_capacity()));
  if (whole) {
    num_vertices_ = host.num_vertices();
    upload_whole(out_, host.out_storage(), num_vertices_);
    if (has_in_ && directed_) upload_whole(in_, host.in_storage(), num_vertices_);
  } else {
    // An undirected graph logs both directions of each pair, so the sources cover every row.
    std::vector<vid_t> out_rows;
    std::vector<vid_t> in_rows;
    for (const auto& c : log.changes) {
      out_rows.push_back(c.src);
      if (has_in_ && directed_) in_rows.push_back(c.dst);
    }
    sync_direction(out_, host.out_storage(), host.out_view(), log.out_edits, out_rows);
    if (has_in_ && directed_) {
      sync_direction(in_, host.in_storage(), host.in_view(), log.in_edits, in_rows);
    }
  }
  num_edges_ = host.num_edges();
  host_relayouts_ = host.relayout_count() - device_relayouts_;
  version_ = host.version();
  synchronize(stream_);
}

template <class vid_t, class eid_t>
adjacency_view_t<vid_t, eid_t> device_graph_t<vid_t, eid_t>::view_of(
    const direction_t& d) const noexcept {
  adjacency_view_t<vid_t, eid_t> view;
  view.num_vertices = num_vertices_;
  view.num_weights = num_weights_;
  view.row_begin = d.row_begin.data();
  view.row_end = d.row_end.data();
  view.col = d.col.data();
  view.weights = num_weights_ > 0 ? d.weights.data() : nullptr;
  return view;
}

template <class vid_t, class eid_t>
adjacency_view_t<vid_t, eid_t> device_graph_t<vid_t, eid_t>::out_view() const noexcept {
  return view_of(out_);
}

template <class vid_t, class eid_t>
adjacency_view_t<vid_t, eid_t> device_graph_t<vid_t, eid_t>::in_view() const {
  if (!has_in_) {
    throw not_supported_error(
        "device graph: the graph was built without in-edges; rebuild it with "
        "store_transposed=True");
  }
  return view_of(directed_ ? in_ : out_);
}

template <class vid_t, class eid_t>
int64_t device_graph_t<vid_t, eid_t>::bytes() const noexcept {
  int64_t total = 0;
  for (const direction_t* d : {&out_, &in_}) {
    total +=
        static_cast<int64_t>(d->row_begin.size() + d->row_end.size() + d->row_capacity_end.size()) *
            sizeof(eid_t) +
        static_cast<int64_t>(d->col.size()) * sizeof(vid_t) +
        static_cast<int64_t>(d->weights.size()) * sizeof(int32_t);
  }
  // The scratch that apply() keeps between batches is the graph's memory too.
  return total + static_cast<int64_t>(apply_workspace_.device_bytes());
}

#define DYNG_INSTANTIATE_DEVICE_GRAPH(V, E) template class device_graph_t<V, E>;
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_DEVICE_GRAPH)
#undef DYNG_INSTANTIATE_DEVICE_GRAPH

}  // namespace dyng::cuda
