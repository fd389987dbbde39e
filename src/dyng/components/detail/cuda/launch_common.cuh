// Host-side pieces that the weak and the strong GPU paths of components share: the graph's rows
// as the kernels read them, the lane-group width, small counters read back after a kernel, and
// the steps from fresh labels to a finished result (sizes and count after a compute, the new
// labels of an update, the entries that differ from a snapshot after a recompute). Included by
// components_cuda.cu and the launch files only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/components/components.hpp"
#include "dyng/components/detail/cuda/label_kernels.cuh"
#include "dyng/components/detail/cuda/relabel_kernels.cuh"
#include "dyng/core/errors.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::components::detail::cuda {

using ::dyng::cuda::as_stream;
using ::dyng::cuda::device_buffer;
using ::dyng::cuda::k_block_threads;
using ::dyng::cuda::stride_blocks;

/// The graph as the kernels read it, with the lane-group width for its mean degree.
template <class vid_t, class eid_t>
struct rows_t {
  adjacency_view_t<vid_t, eid_t> out;
  adjacency_view_t<vid_t, eid_t> in;  ///< The out-rows again for an undirected graph.
  bool directed = true;
  int group = 4;
  int64_t num_vertices = 0;

  rows_t(const graph_t<vid_t, eid_t>& host, const ::dyng::cuda::device_graph_t<vid_t, eid_t>& graph)
      : out(graph.out_view()),
        in(in_edges_view(graph, host.properties().directed)),
        directed(host.properties().directed),
        num_vertices(static_cast<int64_t>(host.num_vertices())) {
    // Sparse rows waste the lanes of wide groups; dense and skewed ones need them.
    const auto edges = static_cast<int64_t>(host.num_edges());
    group = edges <= 6 * std::max<int64_t>(1, num_vertices) ? 4 : 32;
  }
};

/// Calls f(std::integral_constant<int, G>) with the group width G of `rows`.
template <class rows_type, class F>
void with_group(const rows_type& rows, F&& f) {
  if (rows.group == 4) {
    f(std::integral_constant<int, 4>{});
  } else {
    f(std::integral_constant<int, 32>{});
  }
}

/// Grid for a grid-stride kernel over `items` (lane groups of `lanes` each).
inline unsigned grid_for(unsigned long long items, int lanes = 1) {
  return stride_blocks(static_cast<long long>(items) * lanes, k_blocks_per_sm);
}

inline void check_launch() { DYNG_CUDA_CHECK(cudaGetLastError()); }

/// Room for `n` entries (at least one, so that an empty graph still gets a valid pointer).
template <class T>
device_buffer<T> room_for(int64_t n, void* stream) {
  return device_buffer<T>(static_cast<size_t>(std::max<int64_t>(1, n)), stream);
}

/// `count` device values set to zero.
template <class T>
device_buffer<T> zeros(int64_t count, void* stream) {
  device_buffer<T> values = room_for<T>(count, stream);
  values.fill_bytes(0);
  return values;
}

/// Entry i of a device buffer, after the work before it on its stream.
template <class T>
T read_entry(const device_buffer<T>& values, size_t i = 0) {
  T host{};
  ::dyng::cuda::copy_to_host(&host, values.data() + i, sizeof(T), values.stream());
  ::dyng::cuda::synchronize(values.stream());
  return host;
}

/// The first N entries of a device buffer, after the work before them on its stream: one copy
/// and one wait where N calls of read_entry() would make N of each.
template <size_t N, class T>
std::array<T, N> read_first(const device_buffer<T>& values) {
  std::array<T, N> host{};
  ::dyng::cuda::copy_to_host(host.data(), values.data(), sizeof host, values.stream());
  ::dyng::cuda::synchronize(values.stream());
  return host;
}

/// Throws internal_error for a non-zero status word: a kernel's vertex list overflowed.
inline void throw_if_list_overflowed(unsigned long long status) {
  if (status != 0) {
    throw internal_error("components (CUDA): a vertex list overflowed; this is a bug in dyng");
  }
}

/// Throws internal_error when a kernel reported a list overflow in `status`.
inline void check_lists(const device_buffer<int>& status) {
  throw_if_list_overflowed(static_cast<unsigned long long>(read_entry(status)));
}

/// Sizes (zeroed first) and the count of the `n` labels; returns the count.
inline int64_t sizes_and_count(const int64_t* labels, int64_t n, int64_t* sizes, void* stream) {
  ::dyng::cuda::fill_values(sizes, int64_t{0}, static_cast<size_t>(n), stream);
  auto count = zeros<unsigned long long>(1, stream);
  if (n > 0) {
    add_sizes_and_count<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(labels, n, sizes,
                                                                                count.data());
    check_launch();
  }
  return static_cast<int64_t>(read_entry(count));
}

/// Device counters that decide, on the device, whether write_new_labels() applies: the relabel
/// reads counters[1] first and writes nothing where it is non-zero. Both counters come back in
/// `values` at the relabel's one wait, so the repair that launched it early waits once for both.
struct relabel_guard_t {
  const unsigned long long* counters = nullptr;
  unsigned long long values[2] = {0, 0};
};

/// Writes an update's new labels (now_of(v, old label), relabel_kernels.cuh) over `labels`, moves
/// `sizes` along, adds the change of the count to `count` and the counters to `stats`,
/// `affected` included: no snapshot of the state is needed to count it. With a `guard` whose
/// second counter is non-zero, writes nothing and returns false.
template <class now_of_t>
bool write_new_labels(now_of_t now_of, int64_t n, int64_t old_vertices, int64_t* labels,
                      int64_t* sizes, int64_t& count, stats_t& stats, void* stream,
                      relabel_guard_t* guard = nullptr) {
  // The counters (with room for a copy of the guard's, so that one read brings both back), the
  // moved and the listed bits, then the size changes, in one zeroed block: one allocation and
  // one memset where there were two of each. The head and the two bit arrays are an even number
  // of words, so the size changes start 8-byte aligned.
  struct head_t {
    relabel_counts_t counts;
    unsigned long long guard[2];
  };
  const int64_t words = (n + 31) / 32;
  constexpr int64_t head_words = (sizeof(head_t) + 7) / 8 * 2;
  const int64_t bit_words = head_words + 2 * words;
  auto block = zeros<unsigned>(bit_words + 2 * n, stream);
  auto* const head = reinterpret_cast<head_t*>(block.data());
  relabel_counts_t* const counts = &head->counts;
  unsigned* const moved = block.data() + head_words;
  unsigned* const listed_marks = moved + words;
  auto* const delta = reinterpret_cast<long long*>(block.data() + bit_words);
  const unsigned long long* skip = guard == nullptr ? nullptr : guard->counters + 1;
  if (n > 0) {
    auto list = room_for<long long>(n, stream);
    const auto s = as_stream(stream);
    relabel_vertices<<<grid_for(n), k_block_threads, 0, s>>>(
        now_of, n, old_vertices, labels, delta, moved, listed_marks, list.data(),
        static_cast<unsigned long long>(n), counts, skip);
    settle_sizes<<<grid_for(n), k_block_threads, 0, s>>>(list.data(), delta, moved, sizes, counts);
    check_launch();
  }
  if (guard != nullptr) {
    ::dyng::cuda::copy_on_device(head->guard, guard->counters, sizeof head->guard, stream);
  }
  head_t back{};
  ::dyng::cuda::copy_to_host(&back, head, sizeof back, stream);
  ::dyng::cuda::synchronize(stream);
  const relabel_counts_t& found = back.counts;
  if (guard != nullptr) std::copy(back.guard, back.guard + 2, guard->values);
  if (found.status != 0) {
    throw internal_error(
        "components (CUDA): the list of changed sizes overflowed; this is a bug "
        "in dyng");
  }
  if (guard != nullptr && guard->values[1] != 0) return false;
  count += found.count_change;
  stats.relabelled = static_cast<int64_t>(found.relabelled);
  stats.merged = static_cast<int64_t>(found.disappeared);
  stats.split = static_cast<int64_t>(found.appeared);
  stats.affected = static_cast<int64_t>(found.relabelled + found.resized);
  return true;
}

/// The vertices whose label or size entry differs between two results of `n` vertices.
inline int64_t count_differences(const int64_t* labels, const int64_t* sizes,
                                 const int64_t* old_labels, const int64_t* old_sizes, int64_t n,
                                 void* stream) {
  auto differ = zeros<unsigned long long>(1, stream);
  if (n > 0) {
    count_differing<<<grid_for(n), k_block_threads, 0, as_stream(stream)>>>(
        labels, sizes, old_labels, old_sizes, n, differ.data());
    check_launch();
  }
  return static_cast<int64_t>(read_entry(differ));
}

/// cut[label] set for the components the batch's deletions may cut (n flags, zeroed here).
template <class vid_t>
device_buffer<unsigned char> cut_components(const edge_change_t<vid_t>* changes,
                                            int64_t num_changes, const int64_t* labels, int64_t n,
                                            void* stream) {
  auto cut = zeros<unsigned char>(n, stream);
  if (num_changes > 0) {
    mark_cut<<<grid_for(num_changes), k_block_threads, 0, as_stream(stream)>>>(changes, num_changes,
                                                                               labels, cut.data());
    check_launch();
  }
  return cut;
}

}  // namespace dyng::components::detail::cuda
