// device_graph_t::apply(): a batch resolved and written in device memory, and download().
//
// The steps, each a few kernels over the batch (apply_kernels.cuh has the vocabulary):
//  1. The checks that need no graph content (batch_validate.hpp), so a refused batch gets
//     graph_t's message: on the host for a host batch, then one packed upload of it; from the
//     staging kernel's facts for a batch already in device memory (device_batch.cu).
//  2. Resolve: the entries sorted by (key, seq) with two stable radix sorts, each key group
//     replayed by one thread with the host's rule against the copies stored in its out-row.
//     The counters and the earliest rejection come back in one small copy; a rejected batch
//     throws here, before anything is written.
//  3. The effective operations, compacted in key order, and the change log in processing
//     order (what the algorithms' updates repair from), copied to the host.
//  4. Plan each stored direction (out-rows; in-rows of a directed graph with in-edges): its row
//     ops sorted by (row, column), grouped, every touched row composed into a scratch arena,
//     and where each goes: back into its range, to the free tail, or, when the tail is too
//     short, into a fresh layout of the whole direction. Every allocation happens here.
//  5. Commit both directions: copy the arena into place and set the offsets.
// So a batch costs O(batch log batch + slots of the touched rows), like the host's apply.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <climits>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dyng/backend/profile.hpp"
#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/core/log.hpp"
#include "dyng/core/radix_sort.hpp"
#include "dyng/graph/cuda/apply_kernels.cuh"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/cuda/packed_blob.hpp"
#include "dyng/graph/detail/batch_validate.hpp"
#include "dyng/graph/detail/edge_replay.hpp"
#include "dyng/graph/detail/slot_growth.hpp"
#include "dyng/graph/detail/slots.hpp"

namespace dyng::cuda {
namespace {

using i64_buffer = device_buffer<int64_t>;

/// Runs a CUB device algorithm: asks for its scratch size, allocates it on the stream, runs it.
template <class F>
void run_cub(cudaStream_t stream, F&& call) {
  size_t bytes = 0;
  DYNG_CUDA_CHECK(call(nullptr, bytes));
  device_buffer<unsigned char> temp(bytes, stream);
  DYNG_CUDA_CHECK(call(temp.data(), bytes));
}

/// Blocks for `items` grid-stride items (threads), at most 8 blocks per multiprocessor.
unsigned blocks_for(int64_t items, int multiprocessors) {
  const int64_t wanted = (items + k_block_threads - 1) / k_block_threads;
  return static_cast<unsigned>(std::max<int64_t>(
      1, std::min<int64_t>(wanted, static_cast<int64_t>(multiprocessors) * 8)));
}

/// Stable sort of (keys, values) by the low `bits` bits of the keys.
template <class key_t>
void sort_pairs(device_buffer<key_t>& keys, i64_buffer& values, int64_t count, int bits,
                cudaStream_t s) {
  if (count <= 1) return;
  device_buffer<key_t> keys_out(static_cast<size_t>(count), s);
  i64_buffer values_out(static_cast<size_t>(count), s);
  run_cub(s, [&](void* temp, size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, keys.data(), keys_out.data(),
                                           values.data(), values_out.data(),
                                           static_cast<int>(count), 0, bits, s);
  });
  keys = std::move(keys_out);
  values = std::move(values_out);
}

/// Exclusive sums of `count` values, count + 1 entries: the last is the total.
i64_buffer sums_of(const int64_t* values, int64_t count, cudaStream_t s) {
  i64_buffer sums(static_cast<size_t>(count) + 1, s);
  DYNG_CUDA_CHECK(cudaMemsetAsync(sums.data(), 0, sizeof(int64_t), s));
  if (count > 0) {
    run_cub(s, [&](void* temp, size_t& bytes) {
      return cub::DeviceScan::InclusiveSum(temp, bytes, values, sums.data() + 1,
                                           static_cast<int>(count), s);
    });
  }
  return sums;
}

/// One value from device memory (waits for the stream).
int64_t fetch(const int64_t* at, cudaStream_t s) {
  int64_t value = 0;
  copy_to_host(&value, at, sizeof value, s);
  synchronize(s);
  return value;
}

/// The indices i < count with flags[i] != 0, in order, followed by `count` (a sentinel that ends
/// the last range); `selected` receives how many there are, or, when it is already known
/// (>= 0 on entry), is not read back (which spares a wait for the stream).
i64_buffer flagged_indices(const int64_t* flags, int64_t count, int64_t& selected, int sms,
                           cudaStream_t s) {
  i64_buffer sums = sums_of(flags, count, s);
  i64_buffer out(static_cast<size_t>(count) + 1, s);
  if (count > 0) {
    detail::scatter_flagged_kernel<<<blocks_for(count, sms), k_block_threads, 0, s>>>(
        flags, sums.data(), count, out.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
  }
  if (selected < 0) selected = fetch(sums.data() + count, s);
  detail::set_value_kernel<<<1, 1, 0, s>>>(out.data() + selected, count);
  DYNG_CUDA_CHECK(cudaGetLastError());
  return out;
}

}  // namespace

template <class vid_t, class eid_t>
struct device_graph_t<vid_t, eid_t>::apply_context_t {
  using key_t = std::conditional_t<sizeof(vid_t) == 8, unsigned long long, unsigned int>;
  cudaStream_t stream = nullptr;
  int multiprocessors = 1;
  detail::ops_view_t<vid_t> ops{};
  int64_t operations = 0;   ///< Effective operations.
  int64_t both_rows = 0;    ///< Row ops of an undirected graph (the change log's entries).
  int64_t n_before = 0, n_after = 0;
  int64_t stored_after = 0; ///< Slots used per direction after the batch.
  int id_bits = 1;          ///< Bits of the batch's ids and of the sentinels that sort last.
  int seq_bits = 1;
};

template <class vid_t, class eid_t>
struct device_graph_t<vid_t, eid_t>::direction_plan_t {
  int64_t rops = 0, groups = 0, rows = 0;
  i64_buffer rop, group_start, row_first_group, queue_pos, rop_group, survivor;
  device_buffer<vid_t> group_col;
  i64_buffer erases, inserts, copies, reweight, first_copy, group_row, old_before, new_before,
      seen;
  device_buffer<vid_t> row;
  i64_buffer old_size, new_size, old_total, new_total, removed, new_survivors, moved;
  i64_buffer arena_at, tail_at;
  i64_buffer old_chunk_at, new_chunk_at;  ///< Chunks of the old and of the new rows.
  int64_t old_chunks = 0, new_chunks = 0;
  device_buffer<vid_t> arena_col;
  device_buffer<int32_t> arena_weights;
  int64_t moved_slots = 0;
  bool relayout = false;
  bool grown = false;
  i64_buffer sizes, begins, touched_index;
  int64_t fresh_used = 0, fresh_slots = 0;
  direction_t fresh;  ///< New storage: row arrays when grown, everything when re-laid out.

  detail::groups_t<vid_t> group_view() {
    return {group_col.data(), erases.data(),     inserts.data(),    copies.data(),
            reweight.data(),  first_copy.data(), group_row.data(),  old_before.data(),
            new_before.data(), seen.data()};
  }
  detail::touched_t<vid_t> touched_view() {
    return {row.data(),       old_size.data(), new_size.data(),      old_total.data(),
            new_total.data(), removed.data(),  new_survivors.data(), moved.data()};
  }
  detail::arena_t<vid_t> arena_view() {
    return {arena_col.data(), arena_weights.data(), arena_at.data()};
  }
};

namespace {

template <class vid_t, class eid_t, class D>
detail::old_rows_t<vid_t, eid_t> old_rows_of(const D& d, int64_t n) {
  return {d.row_begin.data(), d.row_end.data(), d.row_capacity_end.data(), d.col.data(),
          d.weights.data(), n};
}

}  // namespace

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::plan_direction(direction_t& d, direction_plan_t& p,
                                                  bool in_rows, const apply_context_t& ctx) {
  using key_t = typename apply_context_t::key_t;
  const cudaStream_t s = ctx.stream;
  const int sms = ctx.multiprocessors;
  const bool both = !props_.directed;
  const bool sorted = props_.order == edge_order_t::sorted;
  const int k = num_weights_;
  const auto old_rows = old_rows_of<vid_t, eid_t>(d, ctx.n_before);
  const key_t sentinel = static_cast<key_t>(ctx.n_after);
  auto launch_check = [] { DYNG_CUDA_CHECK(cudaGetLastError()); };

  // Row ops by (row, col, seq). Out-rows of a directed graph are the operations in key order.
  const int64_t items = both ? 2 * ctx.operations : ctx.operations;
  p.rops = both ? ctx.both_rows : ctx.operations;
  p.rop = i64_buffer(static_cast<size_t>(items), s);
  {
    device_buffer<key_t> keys(static_cast<size_t>(items), s);
    if (items > 0) {
      detail::emit_row_ops_kernel<vid_t, key_t><<<blocks_for(items, sms), k_block_threads, 0, s>>>(
          ctx.ops, ctx.operations, both, in_rows, sentinel, p.rop.data(), keys.data());
      launch_check();
    }
    if (both || in_rows) {
      sort_pairs(keys, p.rop, items, ctx.id_bits, s);
      if (items > 0) {
        detail::row_keys_kernel<vid_t, key_t><<<blocks_for(items, sms), k_block_threads, 0, s>>>(
            ctx.ops, p.rop.data(), items, both, sentinel, keys.data());
        launch_check();
      }
      sort_pairs(keys, p.rop, items, ctx.id_bits, s);
    }
  }

  // Groups and touched rows.
  {
    i64_buffer flags(static_cast<size_t>(p.rops), s);
    if (p.rops > 0) {
      detail::group_heads_kernel<<<blocks_for(p.rops, sms), k_block_threads, 0, s>>>(
          ctx.ops, p.rop.data(), p.rops, flags.data());
      launch_check();
    }
    p.groups = -1;
    p.group_start = flagged_indices(flags.data(), p.rops, p.groups, sms, s);
  }
  {
    i64_buffer flags(static_cast<size_t>(p.groups), s);
    if (p.groups > 0) {
      detail::row_heads_kernel<<<blocks_for(p.groups, sms), k_block_threads, 0, s>>>(
          ctx.ops, p.rop.data(), p.group_start.data(), p.groups, flags.data());
      launch_check();
    }
    p.rows = -1;
    p.row_first_group = flagged_indices(flags.data(), p.groups, p.rows, sms, s);
  }
  const auto groups = static_cast<size_t>(p.groups);
  const auto rows = static_cast<size_t>(p.rows);
  p.queue_pos = i64_buffer(static_cast<size_t>(p.rops), s);
  p.rop_group = i64_buffer(static_cast<size_t>(p.rops), s);
  p.survivor = i64_buffer(static_cast<size_t>(p.rops), s);
  p.group_col = device_buffer<vid_t>(groups, s);
  for (i64_buffer* b : {&p.erases, &p.inserts, &p.copies, &p.reweight, &p.first_copy,
                        &p.group_row, &p.old_before, &p.new_before, &p.seen}) {
    *b = i64_buffer(groups, s);
  }
  p.row = device_buffer<vid_t>(rows, s);
  for (i64_buffer* b : {&p.old_size, &p.new_size, &p.old_total, &p.new_total, &p.removed,
                        &p.new_survivors, &p.moved}) {
    *b = i64_buffer(rows, s);
  }
  const auto g = p.group_view();
  const auto t = p.touched_view();
  if (p.groups > 0) {
    detail::group_info_kernel<vid_t, eid_t><<<blocks_for(p.groups, sms), k_block_threads, 0, s>>>(
        ctx.ops, p.rop.data(), p.group_start.data(), p.groups, old_rows, sorted, g,
        p.queue_pos.data(), p.rop_group.data(), p.survivor.data());
    launch_check();
    detail::row_info_kernel<vid_t, eid_t><<<blocks_for(p.rows, sms), k_block_threads, 0, s>>>(
        ctx.ops, p.rop.data(), p.group_start.data(), p.row_first_group.data(), p.rows, old_rows,
        props_.headroom, g, t);
    launch_check();
  }

  // The arena and the tail ranges, in touched-row order, and the rows' chunks.
  p.arena_at = sums_of(p.new_size.data(), p.rows, s);
  p.tail_at = sums_of(p.moved.data(), p.rows, s);
  {
    i64_buffer chunks(rows, s);
    for (auto [size, at] : {std::pair{&p.old_size, &p.old_chunk_at},
                            std::pair{&p.new_size, &p.new_chunk_at}}) {
      if (p.rows > 0) {
        detail::chunk_counts_kernel<<<blocks_for(p.rows, sms), k_block_threads, 0, s>>>(
            size->data(), p.rows, chunks.data());
        launch_check();
      }
      *at = sums_of(chunks.data(), p.rows, s);
    }
  }
  int64_t totals[4] = {0, 0, 0, 0};
  const int64_t* ends[4] = {p.arena_at.data(), p.tail_at.data(), p.old_chunk_at.data(),
                            p.new_chunk_at.data()};
  for (int i = 0; i < 4; ++i) copy_to_host(&totals[i], ends[i] + p.rows, sizeof(int64_t), s);
  synchronize(s);
  const int64_t arena_slots = totals[0];
  p.moved_slots = totals[1];
  p.old_chunks = totals[2];
  p.new_chunks = totals[3];
  p.arena_col = device_buffer<vid_t>(static_cast<size_t>(arena_slots), s);
  p.arena_weights = device_buffer<int32_t>(static_cast<size_t>(arena_slots) * k, s);
  const auto arena = p.arena_view();
  if (sorted && p.old_chunks > 0) {
    detail::compose_old_sorted_kernel<vid_t, eid_t>
        <<<blocks_for(p.old_chunks * 32, sms), k_block_threads, 0, s>>>(
            ctx.ops, p.row_first_group.data(), p.rows, p.old_chunk_at.data(), p.old_chunks,
            old_rows, k, g, t, arena);
    launch_check();
  } else if (!sorted && p.rows > 0) {
    detail::compose_old_append_kernel<vid_t, eid_t>
        <<<blocks_for(p.rows * 32, sms), k_block_threads, 0, s>>>(
            ctx.ops, p.row_first_group.data(), p.rows, old_rows, props_.allow_parallel_edges, k,
            g, t, arena);
    launch_check();
  }
  if (sorted && p.groups > 0) {
    detail::compose_new_sorted_kernel<<<blocks_for(p.groups, sms), k_block_threads, 0, s>>>(
        ctx.ops, p.rop.data(), p.group_start.data(), p.groups, p.queue_pos.data(), k, g, arena);
    launch_check();
  } else if (!sorted && p.rops > 0) {
    // Append rows list their surviving insertions in seq order after the old slots.
    int64_t fresh_count = -1;
    i64_buffer fresh = flagged_indices(p.survivor.data(), p.rops, fresh_count, sms, s);
    if (fresh_count > 0) {
      device_buffer<key_t> keys(static_cast<size_t>(fresh_count), s);
      for (const bool by_row : {false, true}) {
        detail::fresh_keys_kernel<vid_t, key_t>
            <<<blocks_for(fresh_count, sms), k_block_threads, 0, s>>>(
                ctx.ops, p.rop.data(), fresh.data(), fresh_count, by_row, keys.data());
        launch_check();
        sort_pairs(keys, fresh, fresh_count, by_row ? ctx.id_bits : ctx.seq_bits, s);
      }
      i64_buffer fresh_at = sums_of(p.new_survivors.data(), p.rows, s);
      detail::compose_new_append_kernel<<<blocks_for(fresh_count, sms), k_block_threads, 0, s>>>(
          ctx.ops, p.rop.data(), fresh.data(), fresh_count, fresh_at.data(), p.queue_pos.data(),
          p.rop_group.data(), k, g, t, arena);
      launch_check();
      synchronize(s);  // fresh and fresh_at are freed on leaving this scope
    }
  }

  // Where the rows go. Long-lived storage is allocated on the default stream (see upload_whole).
  const int64_t n = ctx.n_after;
  p.relayout = d.tail + p.moved_slots > d.slots;
  p.grown = ctx.n_after > ctx.n_before;
  if (p.relayout) {
    p.sizes = i64_buffer(static_cast<size_t>(n) + 1, s);
    p.touched_index = i64_buffer(static_cast<size_t>(n), s);
    detail::sizes_after_kernel<<<blocks_for(n, sms), k_block_threads, 0, s>>>(
        old_rows, n, p.sizes.data(), p.touched_index.data());
    launch_check();
    if (p.rows > 0) {
      detail::touched_sizes_kernel<<<blocks_for(p.rows, sms), k_block_threads, 0, s>>>(
          t, p.rows, p.sizes.data(), p.touched_index.data());
      launch_check();
    }
    i64_buffer capacity(static_cast<size_t>(n) + 1, s);
    const auto max_slots = static_cast<int64_t>(std::numeric_limits<eid_t>::max());
    p.fresh_used = ctx.stored_after;
    for (const bool padded : {true, false}) {
      detail::capacities_kernel<<<blocks_for(n + 1, sms), k_block_threads, 0, s>>>(
          p.sizes.data(), n, padded, props_.headroom, capacity.data());
      launch_check();
      p.begins = sums_of(capacity.data(), n, s);
      const int64_t laid = fetch(p.begins.data() + n, s);
      // As graph_t lays a direction out: padded rows and a free tail, or, when the offsets type
      // cannot address that, compact rows and no tail.
      p.fresh_slots = padded ? laid + ::dyng::detail::tail_slots(p.fresh_used, props_.headroom)
                             : laid;
      if (p.fresh_slots <= max_slots) break;
      if (!padded) {
        throw capacity_error("Graph.apply(): the graph needs " + std::to_string(p.fresh_slots) +
                             " edge slots, more than its offset type can address (" +
                             std::to_string(max_slots) + "); build it with int64 edge offsets");
      }
    }
    p.fresh.row_begin = device_buffer<eid_t>(static_cast<size_t>(n));
    p.fresh.row_end = device_buffer<eid_t>(static_cast<size_t>(n));
    p.fresh.row_capacity_end = device_buffer<eid_t>(static_cast<size_t>(n));
    p.fresh.col = device_buffer<vid_t>(static_cast<size_t>(p.fresh_slots));
    p.fresh.weights = device_buffer<int32_t>(static_cast<size_t>(p.fresh_slots) * k);
    p.fresh.slots = p.fresh_slots;
    synchronize(nullptr);  // the stream's kernels write them: it must see the allocations first
  } else if (p.grown) {
    // Row arrays of n_after entries: the old offsets, then zeros (rows without slots).
    const auto before = static_cast<size_t>(ctx.n_before);
    for (auto [into, from] : {std::pair{&p.fresh.row_begin, &d.row_begin},
                              std::pair{&p.fresh.row_end, &d.row_end},
                              std::pair{&p.fresh.row_capacity_end, &d.row_capacity_end}}) {
      *into = device_buffer<eid_t>(static_cast<size_t>(n));
      into->fill_bytes(0);
      if (before > 0) copy_on_device(into->data(), from->data(), before * sizeof(eid_t), nullptr);
    }
    synchronize(nullptr);
  }
}

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::commit_direction(direction_t& d, direction_plan_t& p,
                                                    const apply_context_t& ctx) {
  const cudaStream_t s = ctx.stream;
  const int sms = ctx.multiprocessors;
  const int k = num_weights_;
  if (p.relayout) {
    const int64_t n = ctx.n_after;
    if (n > 0) {
      detail::relayout_kernel<vid_t, eid_t><<<blocks_for(n * 32, sms), k_block_threads, 0, s>>>(
          old_rows_of<vid_t, eid_t>(d, ctx.n_before), n, p.sizes.data(), p.begins.data(),
          p.touched_index.data(), p.arena_view(), k, p.fresh.row_begin.data(),
          p.fresh.row_end.data(), p.fresh.row_capacity_end.data(), p.fresh.col.data(),
          p.fresh.weights.data());
      DYNG_CUDA_CHECK(cudaGetLastError());
    }
    p.fresh.tail = fetch(p.begins.data() + n, s);  // also waits before the old storage goes
    d = std::move(p.fresh);
    ++device_relayouts_;
    ::dyng::log(log_level_t::info, [&] {
      return "Graph.apply(): a batch outgrew the free tail of the device rows; the direction was "
             "re-laid out (" + std::to_string(d.slots) + " slots on CUDA device " +
             std::to_string(device_) + ")";
    });
    return;
  }
  if (p.grown) {
    d.row_begin = std::move(p.fresh.row_begin);
    d.row_end = std::move(p.fresh.row_end);
    d.row_capacity_end = std::move(p.fresh.row_capacity_end);
  }
  if (p.rows > 0) {
    i64_buffer dest(static_cast<size_t>(p.rows), s);
    detail::place_offsets_kernel<vid_t, eid_t><<<blocks_for(p.rows, sms), k_block_threads, 0, s>>>(
        p.rows, p.touched_view(), d.tail, p.tail_at.data(), d.row_begin.data(), d.row_end.data(),
        d.row_capacity_end.data(), dest.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
    if (p.new_chunks > 0) {
      detail::place_slots_kernel<<<blocks_for(p.new_chunks * 32, sms), k_block_threads, 0, s>>>(
          p.rows, p.new_chunk_at.data(), p.new_chunks, p.touched_view(), dest.data(),
          p.arena_view(), k, d.col.data(), d.weights.data());
      DYNG_CUDA_CHECK(cudaGetLastError());
    }
  }
  d.tail += p.moved_slots;
}

template <class vid_t, class eid_t>
struct device_graph_t<vid_t, eid_t>::batch_input_t {
  detail::device_batch_t<vid_t> b{};  ///< Pointers into device memory, bases set.
  int64_t n_after = 0;
  int64_t key_bound = 0;  ///< batch_id_bound()
  int64_t dropped = 0;    ///< Self-loops dropped under on_self_loop='drop'.
};

namespace {

/// The batch pointers over the given arrays, in processing order for `props`.
template <class vid_t>
detail::device_batch_t<vid_t> batch_over(const vid_t* ins_src, const vid_t* ins_dst,
                                         const int32_t* ins_w, const vid_t* del_src,
                                         const vid_t* del_dst, int64_t ni, int64_t nd,
                                         const graph_properties_t& props) {
  const auto& sem = props.semantics;
  detail::device_batch_t<vid_t> b{};
  b.ins_src = ins_src;
  b.ins_dst = ins_dst;
  b.ins_weights = ins_w;
  b.del_src = del_src;
  b.del_dst = del_dst;
  b.ni = ni;
  b.nd = nd;
  b.ins_base = sem.deletions_first ? nd : 0;
  b.del_base = sem.deletions_first ? 0 : ni;
  b.directed = props.directed;
  b.drop_self_loops = sem.on_self_loop == on_self_loop_t::drop;
  return b;
}

void check_batch_size(int64_t total) {
  if (total >= INT_MAX) {
    throw capacity_error("Graph.apply(): a batch of " + std::to_string(total) +
                         " entries is more than a device graph applies at once (2^31 - 1); "
                         "split it into smaller batches");
  }
}

}  // namespace

template <class vid_t, class eid_t>
apply_summary_t device_graph_t<vid_t, eid_t>::apply(const edge_batch_t<vid_t>& batch,
                                                    change_log_t<vid_t>* log) {
  const stage_scope_t apply_stage("graph.apply");
  const auto& sem = props_.semantics;
  batch_input_t in;
  const auto checked = ::dyng::detail::validate_batch(batch, props_, num_vertices_);
  in.n_after = checked.num_vertices_after;
  const int64_t ni = static_cast<int64_t>(batch.insert_src.size());
  const int64_t nd = static_cast<int64_t>(batch.delete_src.size());
  check_batch_size(ni + nd);
  in.dropped = sem.on_self_loop == on_self_loop_t::drop ? checked.ids.self_loops : 0;
  // Keys sort below the sentinel: ids a deletion names may pass the vertex count.
  in.key_bound = ::dyng::detail::batch_id_bound(checked.ids, in.n_after);
  device_scope_t scope(device_);
  std::optional<stage_scope_t> upload_stage(std::in_place, "graph.upload_batch");
  // The batch, in one copy.
  std::vector<unsigned char> blob;
  const size_t at_is = detail::append_aligned(blob, batch.insert_src.data(), batch.insert_src.size());
  const size_t at_id = detail::append_aligned(blob, batch.insert_dst.data(), batch.insert_dst.size());
  const size_t at_iw = detail::append_aligned(blob, batch.insert_weights.data(), batch.insert_weights.size());
  const size_t at_ds = detail::append_aligned(blob, batch.delete_src.data(), batch.delete_src.size());
  const size_t at_dd = detail::append_aligned(blob, batch.delete_dst.data(), batch.delete_dst.size());
  device_buffer<unsigned char> staged(blob.size(), stream_);
  if (!blob.empty()) staged.copy_from_host(blob.data(), blob.size());
  const unsigned char* base = staged.data();
  in.b = batch_over(reinterpret_cast<const vid_t*>(base + at_is),
                    reinterpret_cast<const vid_t*>(base + at_id),
                    reinterpret_cast<const int32_t*>(base + at_iw),
                    reinterpret_cast<const vid_t*>(base + at_ds),
                    reinterpret_cast<const vid_t*>(base + at_dd), ni, nd, props_);
  upload_stage.reset();
  return apply_input(in, log);
}

template <class vid_t, class eid_t>
apply_summary_t device_graph_t<vid_t, eid_t>::apply(const staged_batch_t<vid_t>& batch,
                                                    change_log_t<vid_t>* log) {
  const stage_scope_t apply_stage("graph.apply");
  if (batch.device != device_ || batch.checked_version != version_ || batch.conversion.any()) {
    throw internal_error("Graph.apply(): a device batch staged for another graph state (or "
                         "refused by its conversion) reached apply(); this is a bug in dyng");
  }
  const int64_t ni = batch.num_insertions, nd = batch.num_deletions;
  check_batch_size(ni + nd);
  ::dyng::detail::check_batch_shapes(ni, ni, nd, nd, batch.num_weights, ni * batch.num_weights,
                                     props_);
  batch_input_t in;
  in.n_after = ::dyng::detail::check_batch_ids<vid_t>(batch.ids, props_, num_vertices_);
  in.key_bound = ::dyng::detail::batch_id_bound(batch.ids, in.n_after);
  in.dropped = props_.semantics.on_self_loop == on_self_loop_t::drop ? batch.ids.self_loops : 0;
  in.b = batch_over(batch.insert_src(), batch.insert_dst(), batch.insert_weights(),
                    batch.delete_src(), batch.delete_dst(), ni, nd, props_);
  device_scope_t scope(device_);
  return apply_input(in, log);
}

template <class vid_t, class eid_t>
apply_summary_t device_graph_t<vid_t, eid_t>::apply_input(const batch_input_t& in,
                                                          change_log_t<vid_t>* log) {
  using key_t = typename apply_context_t::key_t;
  const auto& sem = props_.semantics;
  const detail::device_batch_t<vid_t>& b = in.b;
  const int64_t n_before = num_vertices_;
  const int64_t n_after = in.n_after;
  const int64_t ni = b.ni;
  const int64_t nd = b.nd;
  const int64_t total = ni + nd;
  const int64_t dropped = in.dropped;
  apply_context_t ctx;
  ctx.stream = as_stream(stream_);
  ctx.multiprocessors = multiprocessor_count();
  ctx.n_before = n_before;
  ctx.n_after = n_after;
  const int64_t key_bound = in.key_bound;
  ctx.id_bits = key_bits_below(key_bound + 1);
  ctx.seq_bits = key_bits_below(total + 1);
  const cudaStream_t s = ctx.stream;
  const int sms = ctx.multiprocessors;
  auto launch_check = [] { DYNG_CUDA_CHECK(cudaGetLastError()); };

  apply_summary_t sum;
  sum.num_vertices_after = n_after;
  sum.inserted_vertices = n_after - n_before;
  sum.dropped_self_loops = dropped;

  // 2. Resolve.
  std::optional<stage_scope_t> stage(std::in_place, "graph.resolve");
  const int64_t live = total - dropped;
  const key_t sentinel = static_cast<key_t>(key_bound);
  i64_buffer recs(static_cast<size_t>(total), s);
  device_buffer<uint8_t> kind(static_cast<size_t>(live), s);
  i64_buffer copies(static_cast<size_t>(live), s);
  detail::status_t status{};
  status.error_seq = ~0ull;
  device_buffer<detail::status_t> status_d(1, s);
  status_d.copy_from_host(&status, 1);
  if (total > 0) {
    device_buffer<key_t> keys(static_cast<size_t>(total), s);
    detail::second_key_kernel<vid_t, key_t><<<blocks_for(total, sms), k_block_threads, 0, s>>>(
        b, total, sentinel, keys.data(), recs.data());
    launch_check();
    sort_pairs(keys, recs, total, ctx.id_bits, s);
    detail::first_key_kernel<vid_t, key_t><<<blocks_for(total, sms), k_block_threads, 0, s>>>(
        b, total, sentinel, recs.data(), keys.data());
    launch_check();
    sort_pairs(keys, recs, total, ctx.id_bits, s);
  }
  if (live > 0) {
    detail::replay_rules_t rules{sem.as_sets, sem.on_missing_delete == on_missing_delete_t::error,
                                 static_cast<int>(sem.on_existing_insert)};
    detail::replay_kernel<vid_t, eid_t><<<blocks_for(live, sms), k_block_threads, 0, s>>>(
        b, recs.data(), live, old_rows_of<vid_t, eid_t>(out_, n_before),
        props_.order == edge_order_t::sorted, rules, kind.data(), copies.data(), status_d.data());
    launch_check();
  }
  status_d.copy_to_host(&status, 1);  // waits
  if (status.error_seq != ~0ull) {
    const auto seq = static_cast<int64_t>(status.error_seq);
    const bool insertion = seq >= b.ins_base && seq < b.ins_base + ni;
    const int64_t index = seq - (insertion ? b.ins_base : b.del_base);
    // The refused entry's ids, from the device copy of the batch.
    vid_t uv[2];
    copy_to_host(&uv[0], (insertion ? b.ins_src : b.del_src) + index, sizeof(vid_t), s);
    copy_to_host(&uv[1], (insertion ? b.ins_dst : b.del_dst) + index, sizeof(vid_t), s);
    synchronize(s);
    if (insertion) {
      throw invalid_argument_error(::dyng::detail::existing_insert_text(index, uv[0], uv[1]));
    }
    throw invalid_argument_error(::dyng::detail::missing_delete_text(index, uv[0], uv[1]));
  }
  const auto* c = status.counters;
  sum.inserted_edges = static_cast<int64_t>(c[detail::k_inserted_edges]);
  sum.updated_edges = static_cast<int64_t>(c[detail::k_updated_edges]);
  sum.deleted_edges = static_cast<int64_t>(c[detail::k_deleted_edges]);
  sum.ignored_deletions = static_cast<int64_t>(c[detail::k_ignored_deletions]);
  sum.ignored_insertions = static_cast<int64_t>(c[detail::k_ignored_insertions]);
  sum.cancelled_pairs = static_cast<int64_t>(c[detail::k_cancelled_pairs]);
  const int64_t mult = props_.directed ? 1 : 2;
  ::dyng::detail::check_slot_count<eid_t>(
      static_cast<int64_t>(num_edges_) + mult * static_cast<int64_t>(c[detail::k_insert_ops]),
      "Graph.apply()");
  ctx.stored_after = static_cast<int64_t>(num_edges_) + sum.inserted_edges - sum.deleted_edges;
  // Known from the counters, so neither needs a read back: the effective operations, and the
  // change log's entries (two per undirected operation, one for a self-loop).
  ctx.operations = static_cast<int64_t>(c[detail::k_insert_ops] + c[detail::k_erase_ops] +
                                        c[detail::k_reweight_ops]);
  ctx.both_rows = props_.directed ? ctx.operations
                                  : 2 * ctx.operations - static_cast<int64_t>(c[detail::k_loop_ops]);

  // 3. The effective operations and the change log.
  stage.emplace("graph.change_log");
  i64_buffer op_seq, op_copies;
  device_buffer<uint8_t> op_kind;
  {
    i64_buffer flags(static_cast<size_t>(live), s);
    if (live > 0) {
      detail::flags_nonzero_kernel<<<blocks_for(live, sms), k_block_threads, 0, s>>>(
          kind.data(), live, flags.data());
      launch_check();
    }
    i64_buffer at = flagged_indices(flags.data(), live, ctx.operations, sms, s);
    op_seq = i64_buffer(static_cast<size_t>(ctx.operations), s);
    op_copies = i64_buffer(static_cast<size_t>(ctx.operations), s);
    op_kind = device_buffer<uint8_t>(static_cast<size_t>(ctx.operations), s);
    if (ctx.operations > 0) {
      detail::gather_ops_kernel<<<blocks_for(ctx.operations, sms), k_block_threads, 0, s>>>(
          at.data(), ctx.operations, recs.data(), kind.data(), copies.data(), op_seq.data(),
          op_kind.data(), op_copies.data());
      launch_check();
    }
  }
  ctx.ops = {b, op_seq.data(), op_kind.data(), op_copies.data()};
  {
    i64_buffer at_seq(static_cast<size_t>(total), s);
    at_seq.fill_bytes(0xFF);
    i64_buffer entries(static_cast<size_t>(total), s);
    if (ctx.operations > 0) {
      detail::operations_by_seq_kernel<<<blocks_for(ctx.operations, sms), k_block_threads, 0, s>>>(
          op_seq.data(), ctx.operations, at_seq.data());
      launch_check();
    }
    if (total > 0) {
      detail::log_entries_kernel<<<blocks_for(total, sms), k_block_threads, 0, s>>>(
          b, at_seq.data(), total, entries.data());
      launch_check();
    }
    i64_buffer pos = sums_of(entries.data(), total, s);
    if (log != nullptr) {
      log->clear();
      log->num_vertices_before = static_cast<vid_t>(n_before);
      log->num_vertices_after = static_cast<vid_t>(n_after);
      device_buffer<edge_change_t<vid_t>> changes(static_cast<size_t>(ctx.both_rows), s);
      if (ctx.both_rows > 0) {
        detail::write_log_kernel<<<blocks_for(total, sms), k_block_threads, 0, s>>>(
            b, at_seq.data(), pos.data(), op_kind.data(), total, changes.data());
        launch_check();
        log->changes.resize(static_cast<size_t>(ctx.both_rows));
        changes.copy_to_host(log->changes.data(), log->changes.size());
      }
    }
  }

  // 4. Plan every stored direction (nothing of the graph is written yet), 5. commit.
  const bool in_rows = has_in_ && directed_;
  direction_plan_t out_plan, in_plan;
  stage.emplace("graph.plan_rows");
  plan_direction(out_, out_plan, false, ctx);
  if (in_rows) plan_direction(in_, in_plan, true, ctx);
  stage.emplace("graph.write_rows");
  commit_direction(out_, out_plan, ctx);
  if (in_rows) commit_direction(in_, in_plan, ctx);
  synchronize(s);
  stage.reset();
  count_in_profile("graph.apply.entries", total);
  num_edges_ = static_cast<eid_t>(ctx.stored_after);
  num_vertices_ = static_cast<vid_t>(n_after);
  ++version_;
  return sum;
}

template <class vid_t, class eid_t>
typename graph_t<vid_t, eid_t>::direction_t device_graph_t<vid_t, eid_t>::download_direction(
    const direction_t& d) const {
  typename graph_t<vid_t, eid_t>::direction_t host;
  const auto n = static_cast<size_t>(num_vertices_);
  const auto slots = static_cast<size_t>(d.slots);
  host.row_begin.resize(n);
  host.row_end.resize(n);
  host.row_capacity_end.resize(n);
  host.col.resize(slots);
  host.weights.resize(slots * static_cast<size_t>(num_weights_));
  copy_to_host(host.row_begin.data(), d.row_begin.data(), n * sizeof(eid_t), stream_);
  copy_to_host(host.row_end.data(), d.row_end.data(), n * sizeof(eid_t), stream_);
  copy_to_host(host.row_capacity_end.data(), d.row_capacity_end.data(), n * sizeof(eid_t),
               stream_);
  copy_to_host(host.col.data(), d.col.data(), slots * sizeof(vid_t), stream_);
  copy_to_host(host.weights.data(), d.weights.data(), host.weights.size() * sizeof(int32_t),
               stream_);
  host.tail = static_cast<eid_t>(d.tail);
  return host;
}

template <class vid_t, class eid_t>
graph_t<vid_t, eid_t> device_graph_t<vid_t, eid_t>::download() const {
  device_scope_t scope(device_);
  auto out = download_direction(out_);
  typename graph_t<vid_t, eid_t>::direction_t in;
  if (has_in_ && directed_) in = download_direction(in_);
  synchronize(stream_);
  return graph_t<vid_t, eid_t>::from_storage(std::move(out), std::move(in), num_vertices_,
                                             num_edges_, props_, version_, relayout_count());
}

#define DYNG_INSTANTIATE_DEVICE_APPLY(V, E)                                                \
  template apply_summary_t device_graph_t<V, E>::apply(const edge_batch_t<V>&,             \
                                                       change_log_t<V>*);                  \
  template apply_summary_t device_graph_t<V, E>::apply(const staged_batch_t<V>&,           \
                                                       change_log_t<V>*);                  \
  template graph_t<V, E> device_graph_t<V, E>::download() const;
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_DEVICE_APPLY)
#undef DYNG_INSTANTIATE_DEVICE_APPLY

}  // namespace dyng::cuda
