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
//     order (what the algorithms' updates repair from), copied back while the rows are planned.
//  4. Plan every stored direction (out-rows; in-rows of a directed graph with in-edges): its row
//     ops sorted by (row, column), grouped, every touched row composed into a scratch arena,
//     and where each goes: back into its range, to the free tail, or, when the tail is too
//     short, into a fresh layout of the whole direction. A sorted row that stays in its range
//     is composed and written from its first changed slot on: the slots before it stay put. The
//     directions are planned side by side, and the arrays that describe the groups and rows are
//     sized by the row ops (an upper bound), so that the host waits once for the counts of both
//     (groups, rows, arena, tail and chunks), not per step or per direction.
//  5. Commit both directions: copy the arena into place and set the offsets.
// So a batch costs O(batch log batch + slots of the touched rows), like the host's apply.
//
// Host time. A batch of 1,000 changes takes the device well under a millisecond, so what the
// host does around the kernels decides the time: every scratch array comes from the graph's
// workspace (device_workspace.hpp), one round per apply(), instead of the pool; counts come back
// through the workspace's page-locked memory; and the host waits only where it needs a value:
// the resolve's status, the plan's read, the end (and a re-layout's own sizes).
//
// With an undo record (dyng.update), the touched rows' old slots are copied as they are composed
// (from each row's kept start on: the commit writes none before it), their offsets as the commit
// replaces them, and the storage the commit replaces is kept; revert() (device_revert.cu) puts
// them back. A stop (Ctrl-C) is honoured up to the commit, before which nothing of the graph is
// written.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
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
#include "dyng/backend/cuda/device_workspace.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/backend/cuda/scan_and_visit.cuh"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/core/log.hpp"
#include "dyng/core/radix_sort.hpp"
#include "dyng/backend/cuda/device_stop.hpp"
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

/// Blocks for `items` grid-stride items (threads), at most `per_sm` (8) blocks per
/// multiprocessor.
unsigned blocks_for(int64_t items, int multiprocessors, int per_sm = 8) {
  const int64_t wanted = (items + k_block_threads - 1) / k_block_threads;
  return static_cast<unsigned>(std::max<int64_t>(
      1, std::min<int64_t>(wanted, static_cast<int64_t>(multiprocessors) * per_sm)));
}

/// blocks_for() for `kernel`, within the blocks it keeps resident on a multiprocessor
/// (launch_shape.cuh's resident_blocks_per_sm()): the kernels that walk every slot of the
/// touched rows take more than 32 registers, so at 8 blocks a multiprocessor a large batch's
/// grid ran in two waves, the second thin.
template <auto kernel>
unsigned resident_blocks_for(int64_t items, int multiprocessors) {
  return blocks_for(items, multiprocessors, std::min(8, resident_blocks_per_sm<kernel>()));
}

/// Stable sort of (keys, values) by the low `bits` bits of the keys; the pointers then name the
/// sorted arrays (taken from the workspace).
template <class key_t>
void sort_pairs(key_t*& keys, int64_t*& values, int64_t count, int bits, device_workspace_t& ws,
                cudaStream_t s) {
  if (count <= 1) return;
  key_t* keys_out = ws.device<key_t>(static_cast<size_t>(count));
  int64_t* values_out = ws.device<int64_t>(static_cast<size_t>(count));
  run_cub(ws, [&](void* temp, size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, keys, keys_out, values, values_out,
                                           static_cast<int>(count), 0, bits, s);
  });
  keys = keys_out;
  values = values_out;
}

/// Exclusive sums of `count` values into `sums`, count + 1 entries: the last is the total.
void sums_into(const int64_t* values, int64_t count, int64_t* sums, device_workspace_t& ws,
               cudaStream_t s) {
  scan_and_visit<int64_t>(count, read_values_t<int64_t>{values}, write_sums_t<int64_t>{sums}, ws,
                          s);
}

/// sums_into() an array of the workspace.
int64_t* sums_of(const int64_t* values, int64_t count, device_workspace_t& ws, cudaStream_t s) {
  int64_t* sums = ws.device<int64_t>(static_cast<size_t>(count) + 1);
  sums_into(values, count, sums, ws, s);
  return sums;
}

/// One value from device memory (waits for the stream).
int64_t fetch(const int64_t* at, cudaStream_t s) {
  int64_t value = 0;
  copy_to_host(&value, at, sizeof value, s);
  synchronize(s);
  return value;
}

/// The values at `from` (device memory) on the host, in order: gathered by one launch, copied
/// back in one copy to the workspace's page-locked memory (valid until its next round), and
/// one wait for the stream.
const int64_t* read_back(const std::vector<const int64_t*>& from, device_workspace_t& ws,
                         cudaStream_t s) {
  if (from.size() > static_cast<size_t>(detail::k_max_read_back)) {
    throw internal_error("Graph.apply(): " + std::to_string(from.size()) +
                         " values to read back at once; this is a bug in dyng");
  }
  detail::value_sources_t sources{};
  sources.count = static_cast<int>(from.size());
  for (size_t i = 0; i < from.size(); ++i) sources.at[i] = from[i];
  int64_t* gathered = ws.device<int64_t>(from.size());
  int64_t* host = ws.host<int64_t>(from.size());
  detail::gather_values_kernel<<<1, detail::k_max_read_back, 0, s>>>(sources, gathered);
  DYNG_CUDA_CHECK(cudaGetLastError());
  copy_to_host(host, gathered, from.size() * sizeof(int64_t), s);
  synchronize(s);
  return host;
}

}  // namespace

template <class vid_t, class eid_t>
struct device_graph_t<vid_t, eid_t>::apply_context_t {
  using key_t = std::conditional_t<sizeof(vid_t) == 8, unsigned long long, unsigned int>;
  cudaStream_t stream = nullptr;
  int multiprocessors = 1;
  int64_t total = 0;      ///< Batch entries.
  int64_t live = 0;       ///< Entries that are not dropped self-loops.
  int64_t key_bound = 0;  ///< batch_id_bound()
  // The resolve's records in (key, seq) order: their seq, effect and old copies of their key.
  int64_t* recs = nullptr;
  uint8_t* kind = nullptr;
  int64_t* copies = nullptr;
  detail::ops_view_t<vid_t> ops{};
  int64_t operations = 0;  ///< Effective operations.
  int64_t both_rows = 0;   ///< Row ops of an undirected graph (the change log's entries).
  int64_t n_before = 0, n_after = 0;
  int64_t stored_after = 0;  ///< Slots used per direction after the batch.
  int id_bits = 1;           ///< Bits of the batch's ids and of the sentinels that sort last.
  int seq_bits = 1;
  /// The change log on its way back (page-locked), both_rows entries; nullptr without a log.
  edge_change_t<vid_t>* changes = nullptr;
};

template <class vid_t, class eid_t>
struct device_graph_t<vid_t, eid_t>::direction_plan_t {
  direction_t* d = nullptr;
  /// The undo record of this direction (dyng.update), or null; filled as the rows are composed
  /// and committed.
  typename undo_t::record_t* record = nullptr;
  bool in_rows = false;  ///< The in-rows of a directed graph (row ops flipped to (v, u)).
  int64_t rops = 0, groups = 0, rows = 0;
  // Scratch arrays (the graph's workspace), valid until the apply() ends.
  int64_t* rop = nullptr;
  int64_t *group_start = nullptr, *row_first_group = nullptr, *queue_pos = nullptr,
          *rop_group = nullptr, *survivor = nullptr;
  vid_t* group_col = nullptr;
  int64_t *erases = nullptr, *inserts = nullptr, *copies = nullptr, *reweight = nullptr,
          *first_copy = nullptr, *group_row = nullptr, *old_before = nullptr, *new_before = nullptr,
          *seen = nullptr;
  vid_t* row = nullptr;
  int64_t *old_size = nullptr, *new_size = nullptr, *old_total = nullptr, *new_total = nullptr,
          *removed = nullptr, *new_survivors = nullptr, *moved = nullptr, *kept = nullptr;
  int64_t *arena_at = nullptr, *tail_at = nullptr;
  int64_t *old_chunk_at = nullptr, *new_chunk_at = nullptr;  ///< Chunks of the old and new rows.
  int64_t* old_slot_at = nullptr;  ///< Where each touched row's old slots go in an undo record.
  int64_t old_slots = 0;           ///< The touched rows' slots before the batch.
  int64_t old_chunks = 0, new_chunks = 0;
  int64_t arena_slots = 0;
  vid_t* arena_col = nullptr;
  int32_t* arena_weights = nullptr;
  int64_t moved_slots = 0;
  bool relayout = false;
  bool grown = false;
  // A re-layout's arrays of one entry per row: from the pool, not the workspace, which would
  // keep them for good (rare, and as large as the graph's row arrays).
  i64_buffer sizes, begins, touched_index;
  int64_t fresh_used = 0, fresh_slots = 0;
  /// New storage: row arrays when grown, everything when re-laid out. After the commit it holds
  /// the storage replaced, which must outlive the commit's kernels (apply() waits for them).
  direction_t fresh;

  detail::groups_t<vid_t> group_view() const {
    return {group_col,  erases,    inserts,    copies,     reweight,
            first_copy, group_row, old_before, new_before, seen};
  }
  detail::touched_t<vid_t> touched_view() const {
    return {row, old_size, new_size, old_total, new_total, removed, new_survivors, moved, kept};
  }
  detail::arena_t<vid_t> arena_view() const { return {arena_col, arena_weights, arena_at}; }
};

namespace {

template <class vid_t, class eid_t, class D>
detail::old_rows_t<vid_t, eid_t> old_rows_of(const D& d, int64_t n) {
  return {d.row_begin.data(), d.row_end.data(), d.row_capacity_end.data(),
          d.col.data(),       d.weights.data(), n};
}

}  // namespace

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::plan_rows(direction_plan_t* plans, int count,
                                             const apply_context_t& ctx) {
  // Each step is queued for every direction before the host waits, once, for what it found:
  // the groups and rows, and the arena, tail and chunk totals. Groups and rows are at most the
  // row ops, so the arrays that describe them are sized by the row ops and the kernels read the
  // counts in device memory.
  // The sub-stages show where the host waits (their ends) against the kernels' own time.
  std::optional<stage_scope_t> stage(std::in_place, "graph.plan_groups");
  std::vector<const int64_t*> totals;
  for (int i = 0; i < count; ++i) {
    sort_row_ops(plans[i], ctx);
    const int64_t* packed = find_groups(plans[i], ctx);
    describe_rows(plans[i], packed, ctx, totals);
    totals.push_back(packed);
  }
  stage.emplace("graph.plan_sizes");
  const int64_t* sums = read_back(totals, apply_workspace_, ctx.stream);
  stage.emplace("graph.plan_compose");
  bool fresh_storage = false;
  for (int i = 0; i < count; ++i) {
    direction_plan_t& p = plans[i];
    const int64_t* mine = sums + (detail::k_span_totals + 1) * i;
    p.groups = mine[detail::k_span_totals] >> detail::k_group_flag_shift;
    p.rows = mine[detail::k_span_totals] & detail::k_row_flag_mask;
    p.arena_slots = mine[0];
    p.moved_slots = mine[1];
    p.old_chunks = mine[2];
    p.new_chunks = mine[3];
    p.old_slots = mine[4];
    // Whether the rows move to new storage, decided once: reserve_record() and plan_layout().
    p.relayout = p.d->tail + p.moved_slots > p.d->slots;
    if (p.record != nullptr) reserve_record(p);
    compose_rows(p, ctx);
    fresh_storage = plan_layout(p, ctx) || fresh_storage;
  }
  // New storage comes from the default stream (see upload_whole); the graph's stream writes it.
  if (fresh_storage) synchronize(nullptr);
}

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::sort_row_ops(direction_plan_t& p, const apply_context_t& ctx) {
  using key_t = typename apply_context_t::key_t;
  device_workspace_t& ws = apply_workspace_;
  const cudaStream_t s = ctx.stream;
  const int sms = ctx.multiprocessors;
  const bool both = !props_.directed;
  const key_t sentinel = static_cast<key_t>(ctx.n_after);
  // Row ops by (row, col, seq). Out-rows of a directed graph are the operations in key order.
  const int64_t items = both ? 2 * ctx.operations : ctx.operations;
  p.rops = both ? ctx.both_rows : ctx.operations;
  p.rop = ws.device<int64_t>(static_cast<size_t>(items));
  if ((both || p.in_rows) && 2 * ctx.id_bits <= 64) {  // row and column in one key: one sort
    auto* pairs = ws.device<unsigned long long>(static_cast<size_t>(items));
    if (items > 0) {
      detail::emit_row_pairs_kernel<vid_t><<<blocks_for(items, sms), k_block_threads, 0, s>>>(
          ctx.ops, ctx.operations, both, p.in_rows, static_cast<unsigned long long>(sentinel),
          ctx.id_bits, p.rop, pairs);
      DYNG_CUDA_CHECK(cudaGetLastError());
    }
    sort_pairs(pairs, p.rop, items, 2 * ctx.id_bits, ws, s);
    return;
  }
  key_t* keys = ws.device<key_t>(static_cast<size_t>(items));
  if (items > 0) {
    detail::emit_row_ops_kernel<vid_t, key_t><<<blocks_for(items, sms), k_block_threads, 0, s>>>(
        ctx.ops, ctx.operations, both, p.in_rows, sentinel, p.rop, keys);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }
  if (!both && !p.in_rows) return;
  sort_pairs(keys, p.rop, items, ctx.id_bits, ws, s);
  if (items > 0) {
    detail::row_keys_kernel<vid_t, key_t><<<blocks_for(items, sms), k_block_threads, 0, s>>>(
        ctx.ops, p.rop, items, both, sentinel, keys);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }
  sort_pairs(keys, p.rop, items, ctx.id_bits, ws, s);
}

/// Queues the grouping of the sorted row ops; returns where the packed count of groups and
/// rows will be (device memory).
template <class vid_t, class eid_t>
const int64_t* device_graph_t<vid_t, eid_t>::find_groups(direction_plan_t& p,
                                                         const apply_context_t& ctx) {
  device_workspace_t& ws = apply_workspace_;
  const cudaStream_t s = ctx.stream;
  const auto entries = static_cast<size_t>(p.rops) + 1;  // groups and rows are at most the ops
  p.group_start = ws.device<int64_t>(entries);
  p.row_first_group = ws.device<int64_t>(entries);
  int64_t* total = ws.device<int64_t>(1);
  scan_and_visit<int64_t>(p.rops, detail::head_flag_t<vid_t>{ctx.ops, p.rop},
                          detail::scatter_heads_t{p.group_start, p.row_first_group, total}, ws, s);
  return total;
}

/// With the groups and rows counted in device memory (`packed`, find_groups()): what each group
/// and touched row does, and where the sums that size the arena, the tail ranges and the chunks
/// will be (appended to `totals`). The arrays hold one entry per row op, at least one per group
/// and per row.
template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::describe_rows(direction_plan_t& p, const int64_t* packed,
                                                 const apply_context_t& ctx,
                                                 std::vector<const int64_t*>& totals) {
  device_workspace_t& ws = apply_workspace_;
  const cudaStream_t s = ctx.stream;
  const int sms = ctx.multiprocessors;
  const auto old_rows = old_rows_of<vid_t, eid_t>(*p.d, ctx.n_before);
  const auto rops = static_cast<size_t>(p.rops);
  const auto groups = rops;
  const auto rows = rops;
  for (int64_t** b : {&p.queue_pos, &p.rop_group, &p.survivor}) *b = ws.device<int64_t>(rops);
  p.group_col = ws.device<vid_t>(groups);
  for (int64_t** b : {&p.erases, &p.inserts, &p.copies, &p.reweight, &p.first_copy, &p.group_row,
                      &p.old_before, &p.new_before, &p.seen}) {
    *b = ws.device<int64_t>(groups);
  }
  p.row = ws.device<vid_t>(rows);
  for (int64_t** b : {&p.old_size, &p.new_size, &p.old_total, &p.new_total, &p.removed,
                      &p.new_survivors, &p.moved, &p.kept}) {
    *b = ws.device<int64_t>(rows);
  }
  const auto g = p.group_view();
  const auto t = p.touched_view();
  if (p.rops > 0) {
    detail::group_info_kernel<vid_t, eid_t><<<blocks_for(p.rops, sms), k_block_threads, 0, s>>>(
        ctx.ops, p.rop, p.group_start, packed, old_rows, props_.order == edge_order_t::sorted, g,
        p.queue_pos, p.rop_group, p.survivor);
    DYNG_CUDA_CHECK(cudaGetLastError());
    detail::row_info_kernel<vid_t, eid_t><<<blocks_for(p.rops, sms), k_block_threads, 0, s>>>(
        ctx.ops, p.rop, p.group_start, p.row_first_group, packed, old_rows, props_.headroom,
        props_.order == edge_order_t::sorted, g, t);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }
  // The arena and the tail ranges, in touched-row order, and the rows' chunks: one scan over
  // as many entries as row ops, those past the rows adding nothing, so that every offset from
  // the rows' count on is the total.
  const auto entries = rows + 1;
  for (int64_t** at : {&p.arena_at, &p.tail_at, &p.old_chunk_at, &p.new_chunk_at, &p.old_slot_at}) {
    *at = ws.device<int64_t>(entries);
  }
  scan_and_visit<detail::row_spans_t>(
      p.rops, detail::row_span_of_t{p.old_size, p.new_size, p.moved, p.kept, packed},
      detail::split_row_spans_t{p.arena_at, p.tail_at, p.old_chunk_at, p.new_chunk_at,
                                p.old_slot_at},
      ws, s, detail::add_row_spans_t{});
  // plan_rows() reads them back in this order, k_span_totals per direction, then the packed
  // count.
  const int64_t* const sums[] = {p.arena_at, p.tail_at, p.old_chunk_at, p.new_chunk_at,
                                 p.old_slot_at};
  for (const int64_t* at : sums) totals.push_back(at + p.rops);
}

/// Every touched row composed into the arena: its surviving old slots, then its insertions.
template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::compose_rows(direction_plan_t& p, const apply_context_t& ctx) {
  using key_t = typename apply_context_t::key_t;
  device_workspace_t& ws = apply_workspace_;
  const cudaStream_t s = ctx.stream;
  const int sms = ctx.multiprocessors;
  const bool sorted = props_.order == edge_order_t::sorted;
  const int k = num_weights_;
  const auto old_rows = old_rows_of<vid_t, eid_t>(*p.d, ctx.n_before);
  p.arena_col = ws.device<vid_t>(static_cast<size_t>(p.arena_slots));
  p.arena_weights = ws.device<int32_t>(static_cast<size_t>(p.arena_slots) * k);
  const auto g = p.group_view();
  const auto t = p.touched_view();
  const auto arena = p.arena_view();
  detail::saved_slots_t<vid_t> saved{nullptr, nullptr, p.old_slot_at};
  if (p.record != nullptr && p.record->rows > 0) {
    saved.col = p.record->col;
    saved.weights = p.record->weights;
  }
  if (sorted && p.old_chunks > 0) {
    detail::compose_old_sorted_kernel<vid_t, eid_t>
        <<<resident_blocks_for<&detail::compose_old_sorted_kernel<vid_t, eid_t>>(p.old_chunks * 32,
                                                                                 sms),
           k_block_threads, 0, s>>>(ctx.ops, p.row_first_group, p.rows, p.old_chunk_at,
                                    p.old_chunks, old_rows, k, g, t, arena, saved);
    DYNG_CUDA_CHECK(cudaGetLastError());
  } else if (!sorted && p.rows > 0) {
    detail::compose_old_append_kernel<vid_t, eid_t>
        <<<resident_blocks_for<&detail::compose_old_append_kernel<vid_t, eid_t>>(p.rows * 32, sms),
           k_block_threads, 0, s>>>(ctx.ops, p.row_first_group, p.rows, old_rows,
                                    props_.allow_parallel_edges, k, g, t, arena, saved);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }
  if (sorted && p.groups > 0) {
    detail::compose_new_sorted_kernel<<<blocks_for(p.groups, sms), k_block_threads, 0, s>>>(
        ctx.ops, p.rop, p.group_start, p.groups, p.queue_pos, k, g, p.kept, arena);
    DYNG_CUDA_CHECK(cudaGetLastError());
  } else if (!sorted && p.rops > 0) {
    // Append rows list their surviving insertions in (row, seq) order after the old slots; all
    // row ops are sorted, the others last, so that the host needs no count of the survivors.
    int64_t* fresh = ws.device<int64_t>(static_cast<size_t>(p.rops));
    key_t* keys = ws.device<key_t>(static_cast<size_t>(p.rops));
    for (const bool by_row : {false, true}) {
      detail::fresh_keys_kernel<vid_t, key_t><<<blocks_for(p.rops, sms), k_block_threads, 0, s>>>(
          ctx.ops, p.rop, p.survivor, fresh, p.rops, by_row, static_cast<key_t>(ctx.n_after), keys);
      DYNG_CUDA_CHECK(cudaGetLastError());
      sort_pairs(keys, fresh, p.rops, by_row ? ctx.id_bits : ctx.seq_bits, ws, s);
    }
    const int64_t* fresh_at = sums_of(p.new_survivors, p.rows, ws, s);
    detail::compose_new_append_kernel<<<blocks_for(p.rops, sms), k_block_threads, 0, s>>>(
        ctx.ops, p.rop, fresh, p.survivor, p.rops, fresh_at, p.queue_pos, p.rop_group, k, g, t,
        arena);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }
}

/// Where the rows go; returns whether it allocated new storage (on the default stream, which
/// the graph's stream must see before commit_direction() writes it: plan_rows() waits once).
template <class vid_t, class eid_t>
bool device_graph_t<vid_t, eid_t>::plan_layout(direction_plan_t& p, const apply_context_t& ctx) {
  const cudaStream_t s = ctx.stream;
  const int sms = ctx.multiprocessors;
  const int k = num_weights_;
  const direction_t& d = *p.d;
  const auto old_rows = old_rows_of<vid_t, eid_t>(d, ctx.n_before);
  const int64_t n = ctx.n_after;
  p.grown = ctx.n_after > ctx.n_before;
  if (p.relayout) {
    p.sizes = i64_buffer(static_cast<size_t>(n) + 1, s);
    p.touched_index = i64_buffer(static_cast<size_t>(n), s);
    detail::sizes_after_kernel<<<blocks_for(n, sms), k_block_threads, 0, s>>>(
        old_rows, n, p.sizes.data(), p.touched_index.data());
    DYNG_CUDA_CHECK(cudaGetLastError());
    if (p.rows > 0) {
      detail::touched_sizes_kernel<<<blocks_for(p.rows, sms), k_block_threads, 0, s>>>(
          p.touched_view(), p.rows, p.sizes.data(), p.touched_index.data());
      DYNG_CUDA_CHECK(cudaGetLastError());
    }
    i64_buffer capacity(static_cast<size_t>(n) + 1, s);
    p.begins = i64_buffer(static_cast<size_t>(n) + 1, s);
    const auto max_slots = static_cast<int64_t>(std::numeric_limits<eid_t>::max());
    p.fresh_used = ctx.stored_after;
    int64_t laid = 0;
    for (const bool padded : {true, false}) {
      detail::capacities_kernel<<<blocks_for(n + 1, sms), k_block_threads, 0, s>>>(
          p.sizes.data(), n, padded, props_.headroom, capacity.data());
      DYNG_CUDA_CHECK(cudaGetLastError());
      sums_into(capacity.data(), n, p.begins.data(), apply_workspace_, s);
      laid = fetch(p.begins.data() + n, s);
      // As graph_t lays a direction out: padded rows and a free tail, or, when the offsets type
      // cannot address that, compact rows and no tail.
      p.fresh_slots =
          padded ? laid + ::dyng::detail::tail_slots(p.fresh_used, props_.headroom) : laid;
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
    p.fresh.tail = laid;
    return true;
  }
  if (!p.grown) return false;
  // Row arrays of n_after entries: the old offsets, then zeros (rows without slots).
  const auto before = static_cast<size_t>(ctx.n_before);
  for (auto [into, from] :
       {std::pair{&p.fresh.row_begin, &d.row_begin}, std::pair{&p.fresh.row_end, &d.row_end},
        std::pair{&p.fresh.row_capacity_end, &d.row_capacity_end}}) {
    *into = device_buffer<eid_t>(static_cast<size_t>(n));
    into->fill_bytes(0);
    if (before > 0) copy_on_device(into->data(), from->data(), before * sizeof(eid_t), nullptr);
  }
  return true;
}

template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::commit_direction(direction_plan_t& p,
                                                    const apply_context_t& ctx) {
  const cudaStream_t s = ctx.stream;
  const int sms = ctx.multiprocessors;
  const int k = num_weights_;
  direction_t& d = *p.d;
  if (p.relayout) {
    const int64_t n = ctx.n_after;
    if (n > 0) {
      detail::relayout_kernel<vid_t, eid_t>
          <<<resident_blocks_for<&detail::relayout_kernel<vid_t, eid_t>>(n * 32, sms),
             k_block_threads, 0, s>>>(old_rows_of<vid_t, eid_t>(d, ctx.n_before), n, p.sizes.data(),
                                      p.begins.data(), p.touched_index.data(), p.kept,
                                      p.arena_view(), k, p.fresh.row_begin.data(),
                                      p.fresh.row_end.data(), p.fresh.row_capacity_end.data(),
                                      p.fresh.col.data(), p.fresh.weights.data());
      DYNG_CUDA_CHECK(cudaGetLastError());
    }
    std::swap(d, p.fresh);  // the kernel still reads the old storage: the plan keeps it
    ++device_relayouts_;
    ::dyng::log(log_level_t::info, [&] {
      return "Graph.apply(): a batch outgrew the free tail of the device rows; the direction was "
             "re-laid out (" +
             std::to_string(d.slots) + " slots on CUDA device " + std::to_string(device_) + ")";
    });
    return;
  }
  if (p.grown) {
    // The old row arrays stay in the plan: kernels queued on the stream may still read them.
    std::swap(d.row_begin, p.fresh.row_begin);
    std::swap(d.row_end, p.fresh.row_end);
    std::swap(d.row_capacity_end, p.fresh.row_capacity_end);
  }
  if (p.rows > 0) {
    int64_t* dest = apply_workspace_.device<int64_t>(static_cast<size_t>(p.rows));
    detail::saved_rows_t<vid_t, eid_t> saved{};
    if (p.record != nullptr && p.record->rows > 0) {
      const auto& r = *p.record;
      saved = {r.row, r.begin, r.end, r.capacity_end, r.kept, r.at, p.old_slot_at};
    }
    detail::place_offsets_kernel<vid_t, eid_t><<<blocks_for(p.rows, sms), k_block_threads, 0, s>>>(
        p.rows, p.touched_view(), d.tail, p.tail_at, d.row_begin.data(), d.row_end.data(),
        d.row_capacity_end.data(), dest, saved);
    DYNG_CUDA_CHECK(cudaGetLastError());
    if (p.new_chunks > 0) {
      detail::place_slots_kernel<<<resident_blocks_for<&detail::place_slots_kernel<vid_t>>(
                                       p.new_chunks * 32, sms),
                                   k_block_threads, 0, s>>>(p.rows, p.new_chunk_at, p.new_chunks,
                                                            p.touched_view(), dest, p.arena_view(),
                                                            k, d.col.data(), d.weights.data());
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
                                                    change_log_t<vid_t>* log, undo_t* undo) {
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
  apply_workspace_.begin(stream_);
  std::optional<stage_scope_t> upload_stage(std::in_place, "graph.upload_batch");
  // The batch, in one copy from page-locked memory (which does not wait for the stream).
  detail::packed_arrays_t packed;
  const size_t at_is = packed.add(batch.insert_src.data(), batch.insert_src.size());
  const size_t at_id = packed.add(batch.insert_dst.data(), batch.insert_dst.size());
  const size_t at_iw = packed.add(batch.insert_weights.data(), batch.insert_weights.size());
  const size_t at_ds = packed.add(batch.delete_src.data(), batch.delete_src.size());
  const size_t at_dd = packed.add(batch.delete_dst.data(), batch.delete_dst.size());
  unsigned char* pinned = apply_workspace_.host<unsigned char>(packed.size());
  packed.write_to(pinned);
  unsigned char* base = apply_workspace_.device<unsigned char>(packed.size());
  copy_to_device(base, pinned, packed.size(), stream_);
  in.b = batch_over(
      reinterpret_cast<const vid_t*>(base + at_is), reinterpret_cast<const vid_t*>(base + at_id),
      reinterpret_cast<const int32_t*>(base + at_iw), reinterpret_cast<const vid_t*>(base + at_ds),
      reinterpret_cast<const vid_t*>(base + at_dd), ni, nd, props_);
  upload_stage.reset();
  return apply_input(in, log, undo);
}

template <class vid_t, class eid_t>
apply_summary_t device_graph_t<vid_t, eid_t>::apply(const staged_batch_t<vid_t>& batch,
                                                    change_log_t<vid_t>* log, undo_t* undo) {
  const stage_scope_t apply_stage("graph.apply");
  if (batch.device != device_ || batch.checked_version != version_ || batch.conversion.any()) {
    throw internal_error(
        "Graph.apply(): a device batch staged for another graph state (or "
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
  apply_workspace_.begin(stream_);
  return apply_input(in, log, undo);
}

/// 2. Resolve: every record's effect, the summary's counters, and the batch refused (by a
/// throw, before anything is written) when the replay rejected an entry.
template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::resolve(const batch_input_t& in, apply_context_t& ctx,
                                           apply_summary_t& sum) {
  using key_t = typename apply_context_t::key_t;
  const auto& sem = props_.semantics;
  const detail::device_batch_t<vid_t>& b = in.b;
  device_workspace_t& ws = apply_workspace_;
  const cudaStream_t s = ctx.stream;
  const int sms = ctx.multiprocessors;
  const int64_t total = ctx.total, live = ctx.live;
  const key_t sentinel = static_cast<key_t>(in.key_bound);
  ctx.recs = ws.device<int64_t>(static_cast<size_t>(total));
  ctx.kind = ws.device<uint8_t>(static_cast<size_t>(live));
  ctx.copies = ws.device<int64_t>(static_cast<size_t>(live));
  // The status goes out and comes back through the same page-locked slot.
  detail::status_t* status = ws.host<detail::status_t>(1);
  *status = detail::status_t{};
  status->error_seq = ~0ull;
  detail::status_t* status_d = ws.device<detail::status_t>(1);
  copy_to_device(status_d, status, sizeof *status, s);
  if (total > 0 && 2 * ctx.id_bits <= 64) {  // both ids in one key: one sort
    auto* keys = ws.device<unsigned long long>(static_cast<size_t>(total));
    detail::pair_key_kernel<vid_t><<<blocks_for(total, sms), k_block_threads, 0, s>>>(
        b, total, static_cast<unsigned long long>(sentinel), ctx.id_bits, keys, ctx.recs);
    DYNG_CUDA_CHECK(cudaGetLastError());
    sort_pairs(keys, ctx.recs, total, 2 * ctx.id_bits, ws, s);
  } else if (total > 0) {
    key_t* keys = ws.device<key_t>(static_cast<size_t>(total));
    detail::second_key_kernel<vid_t, key_t>
        <<<blocks_for(total, sms), k_block_threads, 0, s>>>(b, total, sentinel, keys, ctx.recs);
    DYNG_CUDA_CHECK(cudaGetLastError());
    sort_pairs(keys, ctx.recs, total, ctx.id_bits, ws, s);
    detail::first_key_kernel<vid_t, key_t>
        <<<blocks_for(total, sms), k_block_threads, 0, s>>>(b, total, sentinel, ctx.recs, keys);
    DYNG_CUDA_CHECK(cudaGetLastError());
    sort_pairs(keys, ctx.recs, total, ctx.id_bits, ws, s);
  }
  if (live > 0) {
    detail::replay_rules_t rules{sem.as_sets, sem.on_missing_delete == on_missing_delete_t::error,
                                 static_cast<int>(sem.on_existing_insert)};
    detail::replay_kernel<vid_t, eid_t><<<blocks_for(live, sms), k_block_threads, 0, s>>>(
        b, ctx.recs, live, old_rows_of<vid_t, eid_t>(out_, ctx.n_before),
        props_.order == edge_order_t::sorted, rules, ctx.kind, ctx.copies, status_d);
    DYNG_CUDA_CHECK(cudaGetLastError());
  }
  copy_to_host(status, status_d, sizeof *status, s);
  synchronize(s);  // the one wait before the plan: all that follows depends on the counters
  if (status->error_seq != ~0ull) {
    const auto seq = static_cast<int64_t>(status->error_seq);
    const bool insertion = seq >= b.ins_base && seq < b.ins_base + b.ni;
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
  const auto* c = status->counters;
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
  ctx.both_rows = props_.directed
                      ? ctx.operations
                      : 2 * ctx.operations - static_cast<int64_t>(c[detail::k_loop_ops]);
}

/// 3. The effective operations in key order (ctx.ops) and, `with_log`, the change log in
/// processing order, its copy to the host queued (ctx.changes; apply_input() waits for it).
template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::compact_operations(const batch_input_t& in, apply_context_t& ctx,
                                                      bool with_log) {
  const detail::device_batch_t<vid_t>& b = in.b;
  device_workspace_t& ws = apply_workspace_;
  const cudaStream_t s = ctx.stream;
  const int64_t total = ctx.total, live = ctx.live;
  const auto operations = static_cast<size_t>(ctx.operations);
  int64_t* op_seq = ws.device<int64_t>(operations);
  int64_t* op_copies = ws.device<int64_t>(operations);
  uint8_t* op_kind = ws.device<uint8_t>(operations);
  int64_t* at_seq = nullptr;  // the operation of each seq, for the change log
  if (with_log) {
    at_seq = ws.device<int64_t>(static_cast<size_t>(total));
    fill_bytes(at_seq, 0xFF, static_cast<size_t>(total) * sizeof(int64_t), s);
  }
  scan_and_visit<int64_t>(
      live, detail::has_operation_t{ctx.kind},
      detail::gather_ops_t{ctx.recs, ctx.kind, ctx.copies, op_seq, op_kind, op_copies, at_seq}, ws,
      s);
  ctx.ops = {b, op_seq, op_kind, op_copies};
  if (!with_log) return;
  const auto count = static_cast<size_t>(ctx.both_rows);
  auto* changes = count > 0 ? ws.device<edge_change_t<vid_t>>(count) : nullptr;
  scan_and_visit<int64_t>(total, detail::log_entries_t<vid_t>{b, at_seq},
                          detail::write_log_t<vid_t>{b, at_seq, op_kind, changes}, ws, s);
  if (count == 0) return;
  ctx.changes = ws.host<edge_change_t<vid_t>>(count);
  copy_to_host(ctx.changes, changes, count * sizeof(edge_change_t<vid_t>), s);
}

/// Makes `p`'s undo record room for its touched rows, before the rows are composed (which copies
/// their old slots into it) and committed (which copies their old offsets). A re-layout's rows
/// are not copied: the old storage is kept whole.
template <class vid_t, class eid_t>
void device_graph_t<vid_t, eid_t>::reserve_record(direction_plan_t& p) {
  typename undo_t::record_t& record = *p.record;
  const direction_t& d = *p.d;
  record = {};
  record.tail = d.tail;
  record.rows = p.relayout ? 0 : p.rows;
  if (record.rows == 0) return;
  const auto count = static_cast<size_t>(record.rows);
  // The slot count came with the plan's spans: no scan, no wait here.
  const int64_t slots = p.old_slots;
  record.slots = slots;
  const auto k = static_cast<size_t>(num_weights_);
  const auto slot_count = static_cast<size_t>(slots);
  // Each array at a multiple of 256 bytes in the one block.
  const auto round_up = [](size_t bytes) { return (bytes + 255) & ~size_t{255}; };
  const size_t sizes[] = {count * sizeof(vid_t),      3 * count * sizeof(eid_t),
                          count * sizeof(int64_t),    (count + 1) * sizeof(int64_t),
                          slot_count * sizeof(vid_t), slot_count * k * sizeof(int32_t)};
  size_t total = 0;
  for (const size_t bytes : sizes) total += round_up(bytes);
  record.storage = device_buffer<unsigned char>(total, stream_);
  unsigned char* at = record.storage.data();
  record.row = reinterpret_cast<vid_t*>(at);
  at += round_up(sizes[0]);
  record.begin = reinterpret_cast<eid_t*>(at);
  record.end = record.begin + count;
  record.capacity_end = record.end + count;
  at += round_up(sizes[1]);
  record.kept = reinterpret_cast<int64_t*>(at);
  at += round_up(sizes[2]);
  record.at = reinterpret_cast<int64_t*>(at);
  at += round_up(sizes[3]);
  record.col = reinterpret_cast<vid_t*>(at);
  at += round_up(sizes[4]);
  record.weights = reinterpret_cast<int32_t*>(at);
}

template <class vid_t, class eid_t>
apply_summary_t device_graph_t<vid_t, eid_t>::apply_input(const batch_input_t& in,
                                                          change_log_t<vid_t>* log, undo_t* undo) {
  const detail::device_batch_t<vid_t>& b = in.b;
  apply_context_t ctx;
  ctx.stream = as_stream(stream_);
  ctx.multiprocessors = multiprocessor_count();
  ctx.n_before = num_vertices_;
  ctx.n_after = in.n_after;
  ctx.total = b.ni + b.nd;
  ctx.live = ctx.total - in.dropped;
  ctx.key_bound = in.key_bound;
  ctx.id_bits = key_bits_below(in.key_bound + 1);
  ctx.seq_bits = key_bits_below(ctx.total + 1);

  apply_summary_t sum;
  sum.num_vertices_after = ctx.n_after;
  sum.inserted_vertices = ctx.n_after - ctx.n_before;
  sum.dropped_self_loops = in.dropped;

  std::optional<stage_scope_t> stage(std::in_place, "graph.resolve");
  resolve(in, ctx, sum);
  stage.emplace("graph.change_log");
  compact_operations(in, ctx, log != nullptr);

  // 4. Plan every stored direction (nothing of the graph is written yet), 5. commit.
  direction_plan_t plans[2];
  plans[0].d = &out_;
  int directions = 1;
  if (has_in_ && directed_) {
    plans[1].d = &in_;
    plans[1].in_rows = true;
    directions = 2;
  }
  if (undo != nullptr) {
    undo->recorded = false;
    undo->num_vertices = num_vertices_;
    undo->num_edges = num_edges_;
    undo->version = version_;
    undo->device_relayouts = device_relayouts_;
    undo->out = {};
    undo->in = {};
    plans[0].record = &undo->out;
    plans[1].record = &undo->in;
  }
  stage.emplace("graph.plan_rows");
  plan_rows(plans, directions, ctx);
  // Nothing of the graph is written before the commit.
  throw_if_cancelled_on(stream_, "Graph.apply()");
  stage.emplace("graph.write_rows");
  for (int i = 0; i < directions; ++i) commit_direction(plans[i], ctx);
  if (undo != nullptr) {
    // What the commit swapped out (a re-layout's storage, a growth's row arrays) stays with the
    // record rather than being freed with the plan.
    for (int i = 0; i < directions; ++i) {
      auto& record = i == 0 ? undo->out : undo->in;
      record.whole = plans[i].relayout;
      if (plans[i].relayout || plans[i].grown) {
        record.replaced = std::make_unique<direction_t>(std::move(plans[i].fresh));
      }
    }
  }
  synchronize(ctx.stream);
  stage.reset();
  apply_workspace_.end();
  if (log != nullptr) {
    // Filled only now, from the copy queued in step 3: a refused batch leaves the log as it was.
    log->clear();
    log->num_vertices_before = static_cast<vid_t>(ctx.n_before);
    log->num_vertices_after = static_cast<vid_t>(ctx.n_after);
    log->changes.assign(ctx.changes, ctx.changes + ctx.both_rows);
  }
  count_in_profile("graph.apply.entries", ctx.total);
  num_edges_ = static_cast<eid_t>(ctx.stored_after);
  num_vertices_ = static_cast<vid_t>(ctx.n_after);
  ++version_;
  if (undo != nullptr) undo->recorded = true;
  return sum;
}

namespace {

/// Copies `n` row offsets from the device into `into` (a fresh zeroed_array, zero throughout)
/// through a bounce buffer, writing only the pages that hold a non-zero offset. A row that never
/// had edges keeps offsets 0 (graph.hpp), so those pages stay the untouched zero pages a host
/// graph gives isolated vertices, and a download costs host memory for the rows with edges only:
/// a device graph of 10^8 isolated vertices and 5 edges held 1.8 GB of host RSS after edges()
/// with a plain copy of its offset arrays, and 15.5 GB with 7 * 10^8 vertices (H200).
template <class eid_t>
void download_offsets(eid_t* into, const eid_t* from, size_t n, void* stream) {
  constexpr size_t k_bounce = size_t{1} << 20;     // entries per copy: 4-8 MiB
  constexpr size_t k_page = 4096 / sizeof(eid_t);  // entries per 4 KiB page
  std::vector<eid_t> bounce(std::min(n, k_bounce));
  for (size_t at = 0; at < n; at += k_bounce) {
    const size_t count = std::min(k_bounce, n - at);
    copy_to_host(bounce.data(), from + at, count * sizeof(eid_t), stream);
    synchronize(stream);
    for (size_t p = 0; p < count; p += k_page) {
      const eid_t* run = bounce.data() + p;
      const size_t length = std::min(k_page, count - p);
      if (std::any_of(run, run + length, [](eid_t x) { return x != 0; })) {
        std::memcpy(into + at + p, run, length * sizeof(eid_t));
      }
    }
  }
}

}  // namespace

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
  download_offsets(host.row_begin.data(), d.row_begin.data(), n, stream_);
  download_offsets(host.row_end.data(), d.row_end.data(), n, stream_);
  download_offsets(host.row_capacity_end.data(), d.row_capacity_end.data(), n, stream_);
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

#define DYNG_INSTANTIATE_DEVICE_APPLY(V, E)                                                        \
  template apply_summary_t device_graph_t<V, E>::apply(const edge_batch_t<V>&, change_log_t<V>*,   \
                                                       device_graph_t<V, E>::undo_t*);             \
  template apply_summary_t device_graph_t<V, E>::apply(const staged_batch_t<V>&, change_log_t<V>*, \
                                                       device_graph_t<V, E>::undo_t*);             \
  template graph_t<V, E> device_graph_t<V, E>::download() const;
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_DEVICE_APPLY)
#undef DYNG_INSTANTIATE_DEVICE_APPLY

}  // namespace dyng::cuda
