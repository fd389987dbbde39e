// device_graph_t::revert(): an apply() taken back from its undo record (device_graph.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/cuda/undo_kernels.cuh"

namespace dyng::cuda {

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::revert(undo_t& undo) {
  if (!undo.recorded || version_ != undo.version + 1) {
    throw invalid_argument_error(
        "Graph.revert(): the device undo record " +
        (undo.recorded ? "is of the apply to version " + std::to_string(undo.version + 1)
                       : std::string("holds no apply")) +
        " but the graph is at version " + std::to_string(version_) +
        "; revert right after the apply that filled the record");
  }
  device_scope_t scope(device_);
  const cudaStream_t s = as_stream(stream_);
  synchronize(stream_);  // nothing queued still reads the storage about to be swapped back
  const int64_t n_before = undo.num_vertices;
  auto restore = [&](direction_t& d, typename undo_t::record_t& r) {
    if (r.replaced && r.whole) {  // a re-layout: the old storage, whole
      d = std::move(*r.replaced);
      r.replaced.reset();
      return;
    }
    if (r.replaced) {  // a growth: the old row arrays, then the rows written in place
      d.row_begin = std::move(r.replaced->row_begin);
      d.row_end = std::move(r.replaced->row_end);
      d.row_capacity_end = std::move(r.replaced->row_capacity_end);
      r.replaced.reset();
    }
    if (r.rows > 0) {
      detail::restore_rows_kernel<vid_t, eid_t>
          <<<stride_blocks(std::max<int64_t>(r.rows, r.slots), 16), k_block_threads, 0, s>>>(
              r.row, r.rows, n_before, r.begin, r.end, r.capacity_end, r.kept, r.at, r.col,
              r.weights, num_weights_, d.row_begin.data(), d.row_end.data(),
              d.row_capacity_end.data(), d.col.data(), d.weights.data());
      DYNG_CUDA_CHECK(cudaGetLastError());
    }
    d.tail = r.tail;
  };
  restore(out_, undo.out);
  if (has_in_ && directed_) restore(in_, undo.in);
  synchronize(stream_);
  num_vertices_ = undo.num_vertices;
  num_edges_ = undo.num_edges;
  version_ = undo.version;
  device_relayouts_ = undo.device_relayouts;
  undo.recorded = false;
}

#define DYNG_INSTANTIATE_DEVICE_REVERT(V, E) \
  template void device_graph_t<V, E>::revert(device_graph_t<V, E>::undo_t&);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_DEVICE_REVERT)
#undef DYNG_INSTANTIATE_DEVICE_REVERT

}  // namespace dyng::cuda
