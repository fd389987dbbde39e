// The host side of cycle_count's GPU searches (path_search.cuh): the graph as the kernels read it
// (with a transpose built on the device when the graph keeps no in-edges), the slot memory, and
// the order of the launches for a list of searches:
//   per wave of slots (as many as the memory budget holds): clear the previous wave's slots,
//   prepare them, then expand the paths level by level while the lists are short; once a list
//   holds enough paths to keep every multiprocessor busy (or the next one would not fit), the
//   lane groups finish the rest depth-first. Each level ends with one small read-back (the next
//   list's length and its upper bound, and whether the work budget ran out).
// Included by cycle_count_cuda.cu only.
#pragma once

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/device_stop.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/errors.hpp"
#include "dyng/cycle_count/detail/cuda/path_search.cuh"
#include "dyng/cycle_count/detail/cycle_graph.hpp"
#include "dyng/cycle_count/detail/histogram.hpp"
#include "dyng/graph/adjacency_view.hpp"

namespace dyng::cycle_count::detail::cuda {

using ::dyng::cuda::as_stream;
using ::dyng::cuda::device_buffer;
using ::dyng::cuda::k_block_threads;

/// Device memory the slots of one wave may take (dist, c2 and queue: 12 bytes per vertex each).
inline constexpr size_t k_slot_budget_bytes = size_t{1} << 30;
/// Bytes of one path list (two alternate).
inline constexpr size_t k_list_bytes = size_t{64} << 20;

/// Warp per vertex: every slot of x's out-row counted at its head.
template <class eid_t>
__global__ void in_degree_kernel(adjacency_view_t<int32_t, eid_t> out, unsigned long long* degree) {
  const unsigned lane = threadIdx.x & 31u;
  const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32u);
  for (long long x = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32u;
       x < out.num_vertices; x += warps) {
    for (eid_t j = out.row_begin[x] + static_cast<eid_t>(lane); j < out.row_end[x]; j += 32) {
      atomicAdd(degree + out.col[j], 1ull);
    }
  }
}

/// Warp per vertex: x written into the in-row of each of its out-neighbours.
template <class eid_t>
__global__ void scatter_in_kernel(adjacency_view_t<int32_t, eid_t> out, unsigned long long* cursor,
                                  int32_t* in_col) {
  const unsigned lane = threadIdx.x & 31u;
  const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32u);
  for (long long x = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32u;
       x < out.num_vertices; x += warps) {
    for (eid_t j = out.row_begin[x] + static_cast<eid_t>(lane); j < out.row_end[x]; j += 32) {
      in_col[atomicAdd(cursor + out.col[j], 1ull)] = static_cast<int32_t>(x);
    }
  }
}

template <class eid_t>
__global__ void row_bounds_kernel(int32_t n, const unsigned long long* offsets, eid_t* begin,
                                  eid_t* end) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long x = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; x < n;
       x += stride) {
    begin[x] = static_cast<eid_t>(offsets[x]);
    end[x] = static_cast<eid_t>(offsets[x + 1]);
  }
}

/// The in-rows of a directed graph that stores none: counted, prefix-summed and scattered.
template <class eid_t>
struct built_transpose_t {
  device_buffer<eid_t> begin, end;
  device_buffer<int32_t> col;

  built_transpose_t(const adjacency_view_t<int32_t, eid_t>& out, int64_t edges, void* stream) {
    const auto n = static_cast<size_t>(out.num_vertices);
    const cudaStream_t s = as_stream(stream);
    device_buffer<unsigned long long> degree(n + 1, stream), offsets(n + 1, stream);
    degree.fill_bytes(0);
    begin = device_buffer<eid_t>(std::max<size_t>(n, 1), stream);
    end = device_buffer<eid_t>(std::max<size_t>(n, 1), stream);
    col = device_buffer<int32_t>(static_cast<size_t>(std::max<int64_t>(edges, 1)), stream);
    if (n == 0) return;
    const unsigned blocks = ::dyng::cuda::stride_blocks(static_cast<long long>(n) * 32, 8);
    in_degree_kernel<eid_t><<<blocks, k_block_threads, 0, s>>>(out, degree.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
    size_t temp_bytes = 0;
    DYNG_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, degree.data(),
                                                  offsets.data(), static_cast<int>(n + 1), s));
    device_buffer<unsigned char> temp(std::max<size_t>(temp_bytes, 1), stream);
    DYNG_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, degree.data(),
                                                  offsets.data(), static_cast<int>(n + 1), s));
    row_bounds_kernel<eid_t>
        <<<::dyng::cuda::stride_blocks(static_cast<long long>(n), 8), k_block_threads, 0, s>>>(
            out.num_vertices, offsets.data(), begin.data(), end.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
    scatter_in_kernel<eid_t><<<blocks, k_block_threads, 0, s>>>(out, offsets.data(), col.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
    ::dyng::cuda::synchronize(stream);
  }
};

/// What the kernels count into, read back once per level (compute) or once per call (update).
struct control_t {
  unsigned long long hist[2 * k_hist_entries];
  unsigned long long work;
  unsigned long long next_count;
  unsigned long long next_reads;
  unsigned long long next_item;
  int overflow;
  int gave_up;
};

/// The searches of one call on the device copy of the graph (after the batch, for an update).
template <class eid_t>
class path_searches_t {
 public:
  /// `in` is the device in-view, or null to build the transpose here; `wave_slots` and
  /// `depth_first_paths` are options_t's knobs (-1: automatic).
  path_searches_t(const adjacency_view_t<int32_t, eid_t>& out,
                  const adjacency_view_t<int32_t, eid_t>* in, int64_t stored_edges,
                  int64_t wave_slots, int64_t depth_first_paths, void* stream)
      : stream_(stream),
        wave_slots_(wave_slots),
        depth_first_paths_(depth_first_paths),
        control_(1, stream),
        group_(stored_edges <= 6 * std::max<int64_t>(out.num_vertices, 1) ? 4 : 32) {
    graph_.n = out.num_vertices;
    graph_.out_begin = out.row_begin;
    graph_.out_end = out.row_end;
    graph_.out_col = out.col;
    if (in != nullptr) {
      graph_.in_begin = in->row_begin;
      graph_.in_end = in->row_end;
      graph_.in_col = in->col;
    } else {
      transpose_ = std::make_unique<built_transpose_t<eid_t>>(out, stored_edges, stream);
      graph_.in_begin = transpose_->begin.data();
      graph_.in_end = transpose_->end.data();
      graph_.in_col = transpose_->col.data();
    }
  }

  /// compute: the cycles of 2..bound edges from every root, added into hist.
  void count_roots(int64_t bound, std::vector<uint64_t>& hist, int64_t& work) {
    search_params_t<eid_t> p;
    p.g = graph_;
    p.max_edges = static_cast<int>(bound);
    p.work_limit = ~0ull;
    std::vector<uint64_t> unused;
    run(p, graph_.n, 0, hist, unused, work);
  }

  /// update: the cycles of 2..bound edges through each deleted edge on the graph before the batch
  /// (the graph after it without `inserted`, with `deleted`) into `removed`, and through each
  /// inserted edge on the graph after it into `added` (both lists sorted; within a list the
  /// cycles through edge i avoid the edges before it). `first_paths` bounds the paths of one edge
  /// beyond the changed edge (the out-degrees of the edges' heads, the deletions included).
  /// False once the work passes `limit`.
  bool count_batch(const std::vector<edge_pair_t<int32_t>>& deleted,
                   const std::vector<edge_pair_t<int32_t>>& inserted, int64_t bound, int64_t limit,
                   long long first_paths, std::vector<uint64_t>& removed,
                   std::vector<uint64_t>& added, int64_t& work) {
    const long long total = static_cast<long long>(deleted.size() + inserted.size());
    if (total == 0) return true;
    // One upload: the deleted keys (also the overlay's extra out-edges), the inserted keys (also
    // its hidden edges), and the deleted keys reversed (its extra in-edges).
    std::vector<unsigned long long> keys;
    keys.reserve(static_cast<size_t>(total) + deleted.size());
    for (const auto& [u, v] : deleted) keys.push_back(edge_key(u, v));
    for (const auto& [u, v] : inserted) keys.push_back(edge_key(u, v));
    for (const auto& [u, v] : deleted) keys.push_back(edge_key(v, u));
    std::sort(keys.begin() + total, keys.end());
    keys_ = device_buffer<unsigned long long>(keys.size(), stream_);
    ::dyng::cuda::copy_to_device(keys_.data(), keys.data(), keys.size() * sizeof(keys[0]), stream_);
    const long long d = static_cast<long long>(deleted.size());
    search_params_t<eid_t> p;
    p.g = graph_;
    p.g.hidden = keys_.data() + d;
    p.g.hidden_count = static_cast<long long>(inserted.size());
    p.g.extra_out = keys_.data();
    p.g.extra_in = keys_.data() + total;
    p.g.extra_count = d;
    p.through = true;
    p.edges = keys_.data();
    p.deleted = d;
    p.max_edges = static_cast<int>(bound - 1);
    p.offset = 1;
    p.work_limit = limit > work ? static_cast<unsigned long long>(limit - work) : 0ull;
    return run(p, total, first_paths, removed, added, work);
  }

 private:
  control_t read_control() {
    control_t c;
    ::dyng::cuda::copy_to_host(&c, control_.data(), sizeof(c), stream_);
    ::dyng::cuda::synchronize(stream_);
    return c;
  }

  /// Every search slot in waves; true unless the work budget ran out. `first_paths` > 0: the
  /// searches of an update, whose first list is that long at most and is finished depth-first
  /// at once, without a read-back in between.
  bool run(search_params_t<eid_t>& p, long long total, long long first_paths,
           std::vector<uint64_t>& hist, std::vector<uint64_t>& second, int64_t& work) {
    if (total == 0 || graph_.n == 0) return true;
    const cudaStream_t s = as_stream(stream_);
    const size_t n = static_cast<size_t>(graph_.n);
    long long wave = static_cast<long long>(k_slot_budget_bytes / (12 * n + 8));
    if (wave_slots_ > 0) wave = std::min<long long>(wave, wave_slots_);
    wave = std::clamp<long long>(wave, 1, total);
    device_buffer<uint32_t> dist(static_cast<size_t>(wave) * n, stream_);
    device_buffer<uint32_t> c2(static_cast<size_t>(wave) * n, stream_);
    device_buffer<int32_t> queue(static_cast<size_t>(wave) * n, stream_);
    device_buffer<uint32_t> reached(2 * static_cast<size_t>(wave), stream_);
    dist.fill_bytes(0xff);
    c2.fill_bytes(0);
    control_.fill_bytes(0);
    p.dist = dist.data();
    p.c2 = c2.data();
    p.queue = queue.data();
    p.reached = reached.data();
    control_t* c = control_.data();
    p.hist = c->hist;
    p.overflow = &c->overflow;
    p.work = &c->work;
    p.gave_up = &c->gave_up;
    std::vector<device_buffer<int32_t>> lists;
    if (p.max_edges >= 3) {
      const size_t first = first_paths > 0 ? 2 * static_cast<size_t>(first_paths) : 0;
      lists.emplace_back(std::max(k_list_bytes / sizeof(int32_t), first), stream_);
      lists.emplace_back(first > 0 ? 1 : k_list_bytes / sizeof(int32_t), stream_);
    }
    const unsigned slot_blocks = static_cast<unsigned>(
        std::min<long long>(wave, 64LL * ::dyng::cuda::multiprocessor_count()));
    bool gave_up = false;
    for (long long first = 0; first < total && !gave_up; first += wave) {
      // A stop (Ctrl-C) between waves; the counts go to a fresh histogram or one the update's
      // undo restores.
      ::dyng::cuda::throw_if_cancelled_on(stream_, "cycle_count search");
      const long long slots = std::min(wave, total - first);
      if (first > 0) {
        reset_kernel<eid_t><<<slot_blocks, k_block_threads, 0, s>>>(p, wave);
        DYNG_CUDA_CHECK(cudaGetLastError());
      }
      p.first = first;
      prepare(p, slots);
      if (p.max_edges < 3) continue;
      if (first_paths > 0) {
        first_level_then_depth_first(p, slots, lists,
                                     static_cast<unsigned long long>(lists[0].size() / 2));
      } else {
        gave_up = walk(p, slots, lists).gave_up != 0;
      }
    }
    const control_t seen = read_control();
    if (seen.overflow == 2) {
      throw internal_error("cycle_count: a GPU path list overflowed; this is a bug in dyng");
    }
    if (seen.overflow != 0) {
      throw capacity_error(
          "cycle_count: the number of cycles of some length exceeds 2^64 - 1; count with a "
          "smaller max_length");
    }
    add_into(hist, seen.hist);
    if (p.through) add_into(second, seen.hist + k_hist_entries);
    work += static_cast<int64_t>(seen.work);
    return seen.gave_up == 0;
  }

  /// dist, c2 and the shortest cycles of each slot: a block per slot when the slots fill the
  /// GPU, else the whole grid on every slot, level by level.
  void prepare(search_params_t<eid_t>& p, long long slots) {
    const cudaStream_t s = as_stream(stream_);
    const long long sms = ::dyng::cuda::multiprocessor_count();
    if (slots >= 2 * sms) {
      const auto blocks = static_cast<unsigned>(std::min<long long>(slots, 64 * sms));
      prepare_kernel<eid_t><<<blocks, k_block_threads, 0, s>>>(p, slots);
      DYNG_CUDA_CHECK(cudaGetLastError());
      return;
    }
    device_buffer<unsigned long long> length(static_cast<size_t>(slots), stream_);
    device_buffer<long long> frontier(2 * static_cast<size_t>(slots), stream_);
    device_buffer<long long> offsets(static_cast<size_t>(slots) + 1, stream_);
    length.fill_bytes(0);
    frontier.fill_bytes(0);
    offsets.fill_bytes(0);
    // The closers' count stays 0 for searches that stop before their first level.
    DYNG_CUDA_CHECK(
        cudaMemsetAsync(p.reached, 0, 2 * static_cast<size_t>(slots) * sizeof(uint32_t), s));
    prepare_few_params_t<eid_t> a{p, slots, length.data(), frontier.data(), offsets.data()};
    auto* kernel = &prepare_few_kernel<eid_t>;
    ::dyng::cuda::launch_cooperative(
        kernel, ::dyng::cuda::cooperative_blocks(kernel, 4, "cycle_count"), a, s);
  }

  static void add_into(std::vector<uint64_t>& hist, const unsigned long long* device_hist) {
    for (size_t l = 0; l < hist.size() && l < static_cast<size_t>(k_hist_entries); ++l) {
      if (device_hist[l] != 0) add_count(hist, static_cast<int64_t>(l), device_hist[l]);
    }
  }

  void expand(search_params_t<eid_t>& p, const int32_t* list, long long count, int d, int32_t* next,
              unsigned long long capacity) {
    const cudaStream_t s = as_stream(stream_);
    control_t* c = control_.data();
    DYNG_CUDA_CHECK(cudaMemsetAsync(&c->next_count, 0, 2 * sizeof(unsigned long long), s));
    const unsigned blocks = ::dyng::cuda::stride_blocks(count * 32, 16);
    expand_kernel<eid_t><<<blocks, k_block_threads, 0, s>>>(p, list, count, d, next, &c->next_count,
                                                            &c->next_reads, capacity);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }

  /// An update's searches: the paths of one edge past each changed edge, then depth-first.
  void first_level_then_depth_first(search_params_t<eid_t>& p, long long slots,
                                    std::vector<device_buffer<int32_t>>& lists,
                                    unsigned long long capacity) {
    expand(p, nullptr, slots, 0, lists[0].data(), capacity);
    if (p.max_edges >= 4) descend(p, lists[0].data(), 1);
  }

  /// A compute's paths of one wave's slots, level by level, then depth-first.
  control_t walk(search_params_t<eid_t>& p, long long slots,
                 std::vector<device_buffer<int32_t>>& lists) {
    // Four paths per resident warp keep the multiprocessors busy while the long ones finish.
    const long long target = depth_first_paths_ >= 0
                                 ? static_cast<long long>(depth_first_paths_)
                                 : 4LL * ::dyng::cuda::multiprocessor_count() * 64;
    const int32_t* list = nullptr;
    long long count = slots;
    int d = 0;
    int which = 0;
    while (true) {
      const auto capacity = static_cast<unsigned long long>(k_list_bytes / sizeof(int32_t) /
                                                            static_cast<size_t>(d + 2));
      expand(p, list, count, d, lists[which].data(), capacity);
      const control_t seen = read_control();
      ::dyng::cuda::throw_if_cancelled_on(stream_, "cycle_count search");
      if (seen.gave_up || seen.next_count == 0 || d + 4 > p.max_edges) return seen;
      list = lists[which].data();
      count = static_cast<long long>(seen.next_count);
      ++d;
      which = 1 - which;
      // The paths now end at depth d; their children can go deeper when d + 4 <= max_edges.
      const auto next_capacity = k_list_bytes / sizeof(int32_t) / static_cast<size_t>(d + 2);
      const bool deeper = d + 4 <= p.max_edges;
      // Depth-first once the list keeps the GPU busy, or the next would not fit, or all that is
      // left is small (then one kernel beats a read-back per level).
      if (deeper && (count >= target || seen.next_reads > next_capacity ||
                     seen.next_reads < static_cast<unsigned long long>(target))) {
        descend(p, list, d);  // the list's length is still in next_count
        return read_control();
      }
    }
  }

  /// The lane groups over the list that the last expand made (its length in next_count).
  /// Ctrl-C reaches the groups through gave_up, which they read before taking each path.
  void descend(search_params_t<eid_t>& p, const int32_t* list, int d) {
    if (group_ == 4) {
      descend_with<4>(p, list, d);
    } else {
      descend_with<32>(p, list, d);
    }
    ::dyng::cuda::synchronize_or_stop(stream_, p.gave_up, "cycle_count search");
  }

  template <int G>
  void descend_with(search_params_t<eid_t>& p, const int32_t* list, int d) {
    const cudaStream_t s = as_stream(stream_);
    auto* kernel = &descend_kernel<eid_t, G>;
    const size_t groups = k_block_threads / G;
    const size_t shared =
        2 * k_hist_entries * sizeof(unsigned long long) +
        groups * static_cast<size_t>(p.max_edges) * (sizeof(frame_t) + sizeof(int32_t));
    DYNG_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shared)));
    int fit = 0;
    DYNG_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, k_block_threads, shared));
    if (fit < 1) {
      throw internal_error(
          "cycle_count: the depth-first kernel does not fit on a "
          "multiprocessor; this is a bug in dyng's launch configuration");
    }
    // Persistent groups: the list's length is known only on the device.
    const unsigned blocks = static_cast<unsigned>(fit * ::dyng::cuda::multiprocessor_count());
    control_t* c = control_.data();
    DYNG_CUDA_CHECK(cudaMemsetAsync(&c->next_item, 0, sizeof(unsigned long long), s));
    kernel<<<blocks, k_block_threads, shared, s>>>(p, list, &c->next_count, d, &c->next_item);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }

  void* stream_;
  int64_t wave_slots_;
  int64_t depth_first_paths_;
  search_graph_t<eid_t> graph_;
  device_buffer<control_t> control_;
  int group_;
  std::unique_ptr<built_transpose_t<eid_t>> transpose_;
  device_buffer<unsigned long long> keys_;
};

}  // namespace dyng::cycle_count::detail::cuda
