// The kernels of device_graph_t::apply() (device_apply.cu has the steps in order and says why).
//
// Vocabulary. A batch entry is named by its `seq`, its place in processing order (deletions
// first unless deletions_first is off). Its key is (u, v), or (min, max) for an undirected graph.
// The resolve sorts the live entries by (key, seq) and replays each key group with the host's
// rule (edge_replay.hpp), which makes each entry an effective operation (erase, insert,
// reweight) or nothing. An operation touches one row of each stored direction: a "row op",
// encoded as 2 * operation + flip, where flip selects (row, col) = (v, u) instead of (u, v).
// Row ops sorted by (row, col, seq) form groups of one (row, col), and groups form touched rows.
//
// Per group the copies of col in the row form a queue: the old copies in row order, then the
// group's insertions in seq order. Each erase removes the queue's head, each reweight rewrites
// the head, each insert appends (compose.hpp states the same rule for the host). So after the
// group's h erases the survivors are queue items h, h + 1, ..., and only a reweight after the
// last erase changes a survivor: item h.
#pragma once

#include <cstdint>

#include "dyng/graph/change_log.hpp"
#include "dyng/graph/detail/edge_replay.hpp"
#include "dyng/graph/detail/slot_growth.hpp"

namespace dyng::cuda::detail {

/// Effective operation kinds (0: the entry does nothing).
enum : uint8_t { k_no_op = 0, k_erase = 1, k_insert = 2, k_reweight = 3 };

/// Counters the resolve adds up, indices into status_t::counters.
enum : int {
  k_inserted_edges,
  k_updated_edges,
  k_deleted_edges,
  k_ignored_deletions,
  k_ignored_insertions,
  k_cancelled_pairs,
  k_dropped_self_loops,
  k_insert_ops,
  k_erase_ops,
  k_reweight_ops,
  k_loop_ops,  ///< effective operations on self-loops (one row op each, not two, undirected)
  k_counter_count
};

struct status_t {
  unsigned long long counters[k_counter_count];
  unsigned long long error_seq;  ///< Earliest rejected entry, ~0 when none.
};

/// A batch in device memory, read in processing order.
template <class vid_t>
struct device_batch_t {
  const vid_t* ins_src;
  const vid_t* ins_dst;
  const int32_t* ins_weights;  ///< K per insertion.
  const vid_t* del_src;
  const vid_t* del_dst;
  int64_t ni, nd, ins_base, del_base;
  bool directed;
  bool drop_self_loops;

  __device__ bool is_insert(int64_t s) const { return s >= ins_base && s < ins_base + ni; }
  __device__ int64_t index(int64_t s) const { return s - (is_insert(s) ? ins_base : del_base); }
  __device__ vid_t u(int64_t s) const {
    return is_insert(s) ? ins_src[s - ins_base] : del_src[s - del_base];
  }
  __device__ vid_t v(int64_t s) const {
    return is_insert(s) ? ins_dst[s - ins_base] : del_dst[s - del_base];
  }
  __device__ bool dropped(int64_t s) const {
    return drop_self_loops && is_insert(s) && u(s) == v(s);
  }
  __device__ vid_t key_a(int64_t s) const {
    const vid_t x = u(s), y = v(s);
    return directed || x <= y ? x : y;
  }
  __device__ vid_t key_b(int64_t s) const {
    const vid_t x = u(s), y = v(s);
    return directed || x <= y ? y : x;
  }
};

/// One stored direction as it was before the batch; rows >= n did not exist.
template <class vid_t, class eid_t>
struct old_rows_t {
  const eid_t* begin;
  const eid_t* end;
  const eid_t* capacity_end;
  const vid_t* col;
  const int32_t* weights;
  int64_t n;

  __device__ int64_t first(int64_t r) const { return r < n ? static_cast<int64_t>(begin[r]) : 0; }
  __device__ int64_t size(int64_t r) const {
    return r < n ? static_cast<int64_t>(end[r]) - static_cast<int64_t>(begin[r]) : 0;
  }
};

/// The effective operations in key order, and the batch they index.
template <class vid_t>
struct ops_view_t {
  device_batch_t<vid_t> batch;
  const int64_t* seq;
  const uint8_t* kind;
  const int64_t* copies;  ///< Copies of the operation's key stored before the batch.

  __device__ vid_t row(int64_t rop) const {
    const int64_t s = seq[rop >> 1];
    return (rop & 1) ? batch.v(s) : batch.u(s);
  }
  __device__ vid_t col(int64_t rop) const {
    const int64_t s = seq[rop >> 1];
    return (rop & 1) ? batch.u(s) : batch.v(s);
  }
};

__device__ inline unsigned long long warp_sum(unsigned long long x) {
  for (int offset = 16; offset > 0; offset >>= 1) x += __shfl_down_sync(0xffffffffu, x, offset);
  return x;
}

__device__ inline unsigned lanes_below() { return (1u << (threadIdx.x & 31u)) - 1u; }

/// First index in [lo, hi) of sorted `values` not less than x.
template <class T, class U>
__device__ int64_t lower_bound_in(const T* values, int64_t lo, int64_t hi, U x) {
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (values[mid] < x) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

#define DYNG_GRID_STRIDE(i, count)                                                           \
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (count); \
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)

/// Warps over items, one item per warp at a time; the loop is uniform within a warp.
#define DYNG_WARP_STRIDE(t, count)                                                     \
  for (int64_t t = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; \
       t < (count); t += static_cast<int64_t>(gridDim.x) * blockDim.x / 32)

/// Sort keys of every entry by its key's second id; dropped self-loops get `sentinel` and sort
/// last. seqs = 0, 1, ... (the records, in processing order).
template <class vid_t, class key_t>
__global__ void second_key_kernel(device_batch_t<vid_t> b, int64_t total, key_t sentinel,
                                  key_t* keys, int64_t* seqs) {
  DYNG_GRID_STRIDE(s, total) {
    keys[s] = b.dropped(s) ? sentinel : static_cast<key_t>(b.key_b(s));
    seqs[s] = s;
  }
}

/// Sort keys by the key's first id, for records already ordered by the second.
template <class vid_t, class key_t>
__global__ void first_key_kernel(device_batch_t<vid_t> b, int64_t total, key_t sentinel,
                                 const int64_t* seqs, key_t* keys) {
  DYNG_GRID_STRIDE(i, total) {
    const int64_t s = seqs[i];
    keys[i] = b.dropped(s) ? sentinel : static_cast<key_t>(b.key_a(s));
  }
}

/// Sort keys of every entry by its whole key, (first id << bits) | second id, where both ids fit
/// in `bits` bits each: one sort instead of second_key_kernel's and first_key_kernel's two, in
/// the same order. Dropped self-loops get `sentinel` in both halves and sort last. seqs = 0, 1,
/// ... (the records, in processing order).
template <class vid_t>
__global__ void pair_key_kernel(device_batch_t<vid_t> b, int64_t total, unsigned long long sentinel,
                                int bits, unsigned long long* keys, int64_t* seqs) {
  DYNG_GRID_STRIDE(s, total) {
    const bool dropped = b.dropped(s);
    const auto a = dropped ? sentinel : static_cast<unsigned long long>(b.key_a(s));
    const auto c = dropped ? sentinel : static_cast<unsigned long long>(b.key_b(s));
    keys[s] = (a << bits) | c;
    seqs[s] = s;
  }
}

/// Stored copies of column c in row r.
template <class vid_t, class eid_t>
__device__ int64_t copies_in_row(const old_rows_t<vid_t, eid_t>& rows, int64_t r, vid_t c,
                                 bool sorted) {
  const int64_t first = rows.first(r);
  const int64_t last = first + rows.size(r);
  if (sorted) {
    const int64_t lo = lower_bound_in(rows.col, first, last, c);
    int64_t hi = lo;
    while (hi < last && rows.col[hi] == c) ++hi;
    return hi - lo;
  }
  int64_t count = 0;
  for (int64_t j = first; j < last; ++j) count += rows.col[j] == c ? 1 : 0;
  return count;
}

struct replay_rules_t {
  bool as_sets;
  bool missing_delete_is_error;
  int existing_insert;  ///< 0 upsert, 1 error, 2 ignore (on_existing_insert_t's order)
};

/// Replays each key group of the sorted live records (one thread per group head) with the host's
/// rule, writing each record's effect and the copies its key had, and adding up the counters.
template <class vid_t, class eid_t>
__global__ void replay_kernel(device_batch_t<vid_t> b, const int64_t* recs, int64_t live,
                              old_rows_t<vid_t, eid_t> rows, bool sorted, replay_rules_t rules,
                              uint8_t* kind, int64_t* copies, status_t* status) {
  unsigned long long local[k_counter_count] = {};
  DYNG_GRID_STRIDE(i, live) {
    const int64_t s0 = recs[i];
    const vid_t a = b.key_a(s0);
    const vid_t c = b.key_b(s0);
    if (i > 0 && b.key_a(recs[i - 1]) == a && b.key_b(recs[i - 1]) == c) continue;
    const int64_t count = (a < rows.n && c < rows.n) ? copies_in_row(rows, a, c, sorted) : 0;
    const unsigned long long mult = (!b.directed && a != c) ? 2 : 1;
    ::dyng::detail::edge_replay_t replay;
    replay.count = count;
    for (int64_t j = i; j < live; ++j) {
      const int64_t s = recs[j];
      if (j > i && (b.key_a(s) != a || b.key_b(s) != c)) break;
      const bool insert = b.is_insert(s);
      const auto step =
          insert ? replay.insert_step(rules.as_sets) : replay.delete_step(rules.as_sets);
      uint8_t effect = k_no_op;
      bool rejected = false;
      switch (step) {
        case ::dyng::detail::replay_step_t::repeat: break;
        case ::dyng::detail::replay_step_t::erase:
          local[k_deleted_edges] += mult;
          local[k_erase_ops] += 1;
          effect = k_erase;
          break;
        case ::dyng::detail::replay_step_t::missing_delete:
          rejected = rules.missing_delete_is_error;
          local[k_ignored_deletions] += mult;
          break;
        case ::dyng::detail::replay_step_t::insert:
          local[k_inserted_edges] += mult;
          local[k_insert_ops] += 1;
          effect = k_insert;
          break;
        case ::dyng::detail::replay_step_t::existing_insert:
          if (rules.existing_insert == 0) {
            local[k_updated_edges] += mult;
            effect = k_reweight;
          } else if (rules.existing_insert == 2) {
            local[k_ignored_insertions] += mult;
          } else {
            rejected = true;
          }
          break;
      }
      if (effect == k_reweight) local[k_reweight_ops] += 1;
      if (effect != k_no_op && a == c) local[k_loop_ops] += 1;
      if (rejected) atomicMin(&status->error_seq, static_cast<unsigned long long>(s));
      kind[j] = effect;
      copies[j] = count;
    }
    if (rules.as_sets && replay.erased && replay.inserted) local[k_cancelled_pairs] += mult;
  }
  for (int k = 0; k < k_counter_count; ++k) {
    const unsigned long long total = warp_sum(local[k]);
    if ((threadIdx.x & 31u) == 0 && total != 0) atomicAdd(&status->counters[k], total);
  }
}

/// Counts dropped self-loops (the resolve's only counter outside the key groups).
template <class vid_t>
__global__ void dropped_kernel(device_batch_t<vid_t> b, int64_t total, status_t* status) {
  unsigned long long local = 0;
  DYNG_GRID_STRIDE(s, total) local += b.dropped(s) ? 1 : 0;
  const unsigned long long sum = warp_sum(local);
  if ((threadIdx.x & 31u) == 0 && sum != 0) {
    atomicAdd(&status->counters[k_dropped_self_loops], sum);
  }
}

/// At most this many device values come back to the host in one read (device_apply.cu).
inline constexpr int k_max_read_back = 16;

/// Where the values of one read back are: gathered by one thread each into one array, so that
/// they come back in one copy.
struct value_sources_t {
  const int64_t* at[k_max_read_back];
  int count;
};

__global__ inline void gather_values_kernel(value_sources_t from, int64_t* to) {
  if (static_cast<int>(threadIdx.x) < from.count) to[threadIdx.x] = *from.at[threadIdx.x];
}

/// 1 for a live record with an effective operation (compact_operations()' scan input).
struct has_operation_t {
  const uint8_t* kind;
  __device__ int64_t operator()(int64_t j) const { return kind[j] != k_no_op ? 1 : 0; }
};

/// The effective operations in key order, compacted from the live records that have one (`e`:
/// the operations before record j): their seq, kind and the copies of their key. With a change
/// log, also at_seq[seq] = the operation's index (at_seq starts all -1; nullptr without a log).
struct gather_ops_t {
  const int64_t* recs;
  const uint8_t* kind;
  const int64_t* copies;
  int64_t* op_seq;
  uint8_t* op_kind;
  int64_t* op_copies;
  int64_t* at_seq;
  __device__ void operator()(int64_t j, int64_t e, int64_t has) const {
    if (has == 0) return;
    op_seq[e] = recs[j];
    op_kind[e] = kind[j];
    op_copies[e] = copies[j];
    if (at_seq != nullptr) at_seq[recs[j]] = e;
  }
  __device__ void end(int64_t, int64_t) const {}
};

/// Change log entries of seq s: 0 without an operation, 2 for an undirected non-loop edge.
template <class vid_t>
struct log_entries_t {
  device_batch_t<vid_t> b;
  const int64_t* at_seq;
  __device__ int64_t operator()(int64_t s) const {
    return at_seq[s] < 0 ? 0 : (!b.directed && b.u(s) != b.v(s) ? 2 : 1);
  }
};

/// Writes the change log entries of seq s from `pos`, the entries before it.
template <class vid_t>
struct write_log_t {
  device_batch_t<vid_t> b;
  const int64_t* at_seq;
  const uint8_t* op_kind;
  edge_change_t<vid_t>* changes;
  __device__ void operator()(int64_t s, int64_t pos, int64_t entries) const {
    if (entries == 0) return;
    const int64_t e = at_seq[s];
    edge_change_t<vid_t> change;
    change.src = b.u(s);
    change.dst = b.v(s);
    change.kind = op_kind[e] == k_insert  ? edge_change_kind_t::inserted
                  : op_kind[e] == k_erase ? edge_change_kind_t::deleted
                                          : edge_change_kind_t::reweighted;
    changes[pos] = change;
    if (entries == 2) changes[pos + 1] = {change.dst, change.src, change.kind};
  }
  __device__ void end(int64_t, int64_t) const {}
};

/// Row ops of one direction, unsorted, with their sort keys by column. `flip_all` makes every
/// row op (v, u) (in-rows); `both` emits both orientations (undirected rows), the second
/// orientation of a self-loop keyed `sentinel` so that it sorts last and is dropped.
template <class vid_t, class key_t>
__global__ void emit_row_ops_kernel(ops_view_t<vid_t> ops, int64_t count, bool both, bool flip_all,
                                    key_t sentinel, int64_t* rop, key_t* keys) {
  const int64_t items = both ? 2 * count : count;
  DYNG_GRID_STRIDE(i, items) {
    const int64_t code = both ? i : 2 * i + (flip_all ? 1 : 0);
    rop[i] = code;
    const bool duplicate_loop = both && (code & 1) && ops.row(code) == ops.col(code);
    keys[i] = duplicate_loop ? sentinel : static_cast<key_t>(ops.col(code));
  }
}

/// emit_row_ops_kernel() with one key per row op, (row << bits) | col, where both fit in `bits`
/// bits each: one sort by (row, col) instead of two. A duplicate loop gets `sentinel` in both
/// halves.
template <class vid_t>
__global__ void emit_row_pairs_kernel(ops_view_t<vid_t> ops, int64_t count, bool both,
                                      bool flip_all, unsigned long long sentinel, int bits,
                                      int64_t* rop, unsigned long long* keys) {
  const int64_t items = both ? 2 * count : count;
  DYNG_GRID_STRIDE(i, items) {
    const int64_t code = both ? i : 2 * i + (flip_all ? 1 : 0);
    rop[i] = code;
    const bool duplicate_loop = both && (code & 1) && ops.row(code) == ops.col(code);
    const auto row = duplicate_loop ? sentinel : static_cast<unsigned long long>(ops.row(code));
    const auto col = duplicate_loop ? sentinel : static_cast<unsigned long long>(ops.col(code));
    keys[i] = (row << bits) | col;
  }
}

template <class vid_t, class key_t>
__global__ void row_keys_kernel(ops_view_t<vid_t> ops, const int64_t* rop, int64_t count, bool both,
                                key_t sentinel, key_t* keys) {
  DYNG_GRID_STRIDE(i, count) {
    const int64_t code = rop[i];
    const bool duplicate_loop = both && (code & 1) && ops.row(code) == ops.col(code);
    keys[i] = duplicate_loop ? sentinel : static_cast<key_t>(ops.row(code));
  }
}

/// Head flags of the sorted row ops pack two flags, so that one scan counts both: 1 << 32 where a
/// (row, col) group starts, plus 1 where a touched row starts (which always starts a group too).
/// Both counts stay below 2^31 (the scan's item count is an int), so the halves never carry.
inline constexpr int k_group_flag_shift = 32;
inline constexpr int64_t k_row_flag_mask = (int64_t{1} << k_group_flag_shift) - 1;

template <class vid_t>
struct head_flag_t {
  ops_view_t<vid_t> ops;
  const int64_t* rop;
  __device__ int64_t operator()(int64_t i) const {
    const bool row_head = i == 0 || ops.row(rop[i]) != ops.row(rop[i - 1]);
    const bool group_head = row_head || ops.col(rop[i]) != ops.col(rop[i - 1]);
    return (group_head ? int64_t{1} << k_group_flag_shift : 0) + (row_head ? 1 : 0);
  }
};

/// From the packed head flags before each row op: group_start[g] = the row op that starts group
/// g, row_first_group[x] = the group that starts touched row x, each closed by a sentinel (the
/// count, and the number of groups); *total = the packed count of groups and rows.
struct scatter_heads_t {
  int64_t* group_start;
  int64_t* row_first_group;
  int64_t* total;
  __device__ void operator()(int64_t i, int64_t before, int64_t flags) const {
    if ((flags >> k_group_flag_shift) != 0) group_start[before >> k_group_flag_shift] = i;
    if ((flags & k_row_flag_mask) != 0) {
      row_first_group[before & k_row_flag_mask] = before >> k_group_flag_shift;
    }
  }
  __device__ void end(int64_t count, int64_t sum) const {
    *total = sum;
    group_start[sum >> k_group_flag_shift] = count;
    row_first_group[sum & k_row_flag_mask] = sum >> k_group_flag_shift;
  }
};

/// What each group does to its queue (see the header comment).
template <class vid_t>
struct groups_t {
  vid_t* col;
  int64_t* erases;  ///< h
  int64_t* inserts;
  int64_t* copies;      ///< old copies of col in the row
  int64_t* reweight;    ///< insertion whose weights item h gets, -1 for none
  int64_t* first_copy;  ///< sorted rows: where col's copies start (or would) in the old row
  int64_t* row;         ///< touched row index
  int64_t* old_before;  ///< old copies of the row's earlier groups
  int64_t* new_before;  ///< survivors of the row's earlier groups
  int64_t* seen;        ///< append rows with parallel edges: copies met so far by the scan
};

template <class vid_t, class eid_t>
__global__ void group_info_kernel(ops_view_t<vid_t> ops, const int64_t* rop,
                                  const int64_t* group_start, const int64_t* packed,
                                  old_rows_t<vid_t, eid_t> rows, bool sorted, groups_t<vid_t> g,
                                  int64_t* queue_pos, int64_t* rop_group, int64_t* survivor) {
  const int64_t groups = *packed >> k_group_flag_shift;
  DYNG_GRID_STRIDE(x, groups) {
    const int64_t first = group_start[x], last = group_start[x + 1];
    const vid_t r = ops.row(rop[first]);
    const vid_t c = ops.col(rop[first]);
    const int64_t copies = ops.copies[rop[first] >> 1];
    int64_t h = 0, inserted = 0, reweight = -1;
    for (int64_t i = first; i < last; ++i) {
      const int64_t e = rop[i] >> 1;
      const uint8_t k = ops.kind[e];
      queue_pos[i] = -1;
      rop_group[i] = x;
      if (k == k_erase) {
        ++h;
        reweight = -1;  // a reweight before this erase wrote the item it removed
      } else if (k == k_reweight) {
        reweight = ops.batch.index(ops.seq[e]);
      } else {
        queue_pos[i] = copies + inserted++;
      }
    }
    for (int64_t i = first; i < last; ++i) survivor[i] = queue_pos[i] >= h ? 1 : 0;
    g.col[x] = c;
    g.erases[x] = h;
    g.inserts[x] = inserted;
    g.copies[x] = copies;
    g.reweight[x] = reweight;
    g.seen[x] = 0;
    if (sorted) {
      const int64_t begin = rows.first(r);
      g.first_copy[x] = lower_bound_in(rows.col, begin, begin + rows.size(r), c) - begin;
    } else {
      g.first_copy[x] = 0;
    }
  }
}

/// One direction's touched rows.
template <class vid_t>
struct touched_t {
  vid_t* row;
  int64_t* old_size;
  int64_t* new_size;
  int64_t* old_total;      ///< old copies of all its groups
  int64_t* new_total;      ///< survivors of all its groups
  int64_t* removed;        ///< old slots it loses
  int64_t* new_survivors;  ///< inserted items that survive
  int64_t* moved;          ///< slots it takes at the tail, 0 when it stays in its range
  /// Slots at its start that the batch leaves where they are: a sorted row that stays in its
  /// range keeps every slot before its first group's column, which is neither composed nor
  /// copied (a hub row of 10^5 slots is touched by nearly every batch); 0 for the others.
  int64_t* kept;
};

template <class vid_t, class eid_t>
__global__ void row_info_kernel(ops_view_t<vid_t> ops, const int64_t* rop,
                                const int64_t* group_start, const int64_t* row_first_group,
                                const int64_t* packed, old_rows_t<vid_t, eid_t> rows,
                                double headroom, bool sorted, groups_t<vid_t> g,
                                touched_t<vid_t> t) {
  const int64_t count = *packed & k_row_flag_mask;
  DYNG_GRID_STRIDE(x, count) {
    const int64_t gf = row_first_group[x], gl = row_first_group[x + 1];
    const vid_t r = ops.row(rop[group_start[gf]]);
    int64_t old_total = 0, new_total = 0, removed = 0, fresh = 0;
    for (int64_t y = gf; y < gl; ++y) {
      g.row[y] = x;
      g.old_before[y] = old_total;
      g.new_before[y] = new_total;
      const int64_t h = g.erases[y], copies = g.copies[y], inserted = g.inserts[y];
      old_total += copies;
      new_total += copies + inserted - h;
      removed += h < copies ? h : copies;
      fresh += inserted - (h > copies ? h - copies : 0);
    }
    const int64_t old_size = rows.size(r);
    const int64_t new_size = old_size - old_total + new_total;
    t.row[x] = r;
    t.old_size[x] = old_size;
    t.new_size[x] = new_size;
    t.old_total[x] = old_total;
    t.new_total[x] = new_total;
    t.removed[x] = removed;
    t.new_survivors[x] = fresh;
    const bool fits = r < rows.n && rows.first(r) + new_size <= rows.capacity_end[r];
    t.moved[x] = fits ? 0 : ::dyng::detail::moved_capacity(new_size, headroom);
    // Groups are in column order, so the first one's place bounds every change from below.
    t.kept[x] = sorted && fits ? g.first_copy[gf] : 0;
  }
}

/// Where the composed rows go: K weights per slot, rows back to back at `at[x]`.
template <class vid_t>
struct arena_t {
  vid_t* col;
  int32_t* weights;
  const int64_t* at;
};

/// Where an undo record keeps the touched rows' old slots past their kept starts, K weights per
/// slot, rows back to back at `at[x]`; the composing kernels copy each old slot there as they
/// read it. `col` is null without a record.
template <class vid_t>
struct saved_slots_t {
  vid_t* col;
  int32_t* weights;
  const int64_t* at;

  /// Keeps old slot s of touched row x (kept start `kept`), read as `c` and `w`.
  __device__ void keep(int64_t x, int64_t kept, int64_t s, vid_t c, const int32_t* w, int k) const {
    if (col == nullptr) return;
    const int64_t j = at[x] + s - kept;
    col[j] = c;
    for (int i = 0; i < k; ++i) weights[j * k + i] = w[i];
  }
};

/// What an undo record keeps of each touched row besides its slots (device_graph.hpp's
/// undo_t::record_t): its id, its offsets before the commit and its kept start, and the offsets
/// of its slots (count + 1). `row` is null without a record.
template <class vid_t, class eid_t>
struct saved_rows_t {
  vid_t* row;
  eid_t *begin, *end, *capacity_end;
  int64_t *kept, *at;
  const int64_t* slot_at;  ///< The plan's offsets, copied into `at`.
};

template <class vid_t>
__device__ void put_slot(arena_t<vid_t> out, int64_t slot, vid_t c, const int32_t* w, int k) {
  out.col[slot] = c;
  for (int j = 0; j < k; ++j) out.weights[slot * k + j] = w[j];
}

/// Slots per chunk of a touched row: rows are cut into chunks so that a hub row (10^5 slots on
/// R-MAT 22, touched by nearly every batch) spreads over many warps instead of serialising one.
/// A warp walks its chunk 32 slots a step, each step waiting on its loads, so the chunk's length
/// is the composing and placing kernels' critical path: short chunks keep it to a few steps, and
/// a small batch's chunks still fit in the warps the GPU holds at once.
inline constexpr int64_t k_chunk_slots = 256;

/// What each touched row adds to the five running sums that place it: its slots in the arena,
/// its slots in the free tail, its chunks before and after the batch (ceil(size /
/// k_chunk_slots), of the slots past its kept start), and its slots before the batch past its
/// kept start (where an undo record keeps them: the commit writes no slot before it). Summed by one
/// scan instead of five (a batch of 1,000 changes costs the device a few microseconds per launch,
/// more than the work of each).
struct row_spans_t {
  int64_t arena, tail, old_chunks, new_chunks, old_slots;
};
/// The totals of one direction's spans, read back together with its packed count of groups and
/// rows (both directions' in one read).
inline constexpr int k_span_totals = 5;
static_assert(2 * (k_span_totals + 1) <= k_max_read_back);

struct add_row_spans_t {
  __device__ row_spans_t operator()(const row_spans_t& a, const row_spans_t& b) const {
    return {a.arena + b.arena, a.tail + b.tail, a.old_chunks + b.old_chunks,
            a.new_chunks + b.new_chunks, a.old_slots + b.old_slots};
  }
};

/// The spans of touched row x (its arena slots, tail slots and chunks), read from the row arrays.
struct row_span_of_t {
  const int64_t *old_size, *new_size, *moved, *kept;
  const int64_t* packed;  ///< The packed count of groups and rows: entries past the rows are 0.
  __device__ row_spans_t operator()(int64_t x) const {
    if (x >= (*packed & k_row_flag_mask)) return {0, 0, 0, 0, 0};
    const int64_t old_rest = old_size[x] - kept[x], new_rest = new_size[x] - kept[x];
    return {new_rest, moved[x], (old_rest + k_chunk_slots - 1) / k_chunk_slots,
            (new_rest + k_chunk_slots - 1) / k_chunk_slots, old_rest};
  }
};

/// Writes the spans' exclusive sums (count + 1 entries) into the five arrays of offsets.
struct split_row_spans_t {
  int64_t *arena_at, *tail_at, *old_chunk_at, *new_chunk_at, *old_slot_at;
  __device__ void operator()(int64_t x, const row_spans_t& before, const row_spans_t&) const {
    write(x, before);
  }
  __device__ void end(int64_t count, const row_spans_t& total) const { write(count, total); }
  __device__ void write(int64_t x, const row_spans_t& v) const {
    arena_at[x] = v.arena;
    tail_at[x] = v.tail;
    old_chunk_at[x] = v.old_chunks;
    new_chunk_at[x] = v.new_chunks;
    old_slot_at[x] = v.old_slots;
  }
};

/// The touched row that chunk c belongs to: the last x with chunk_at[x] <= c (rows without
/// chunks share their successor's offset and are skipped).
__device__ inline int64_t row_of_chunk(const int64_t* chunk_at, int64_t rows, int64_t c) {
  int64_t lo = 0, hi = rows;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (chunk_at[mid + 1] <= c) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/// The old slots of the touched sorted rows past their kept start, each to its new place in the
/// arena (one warp per chunk): a slot of an untouched column moves by the survivors minus the old
/// copies of the groups before it; a copy of a group's column is dropped when erased, else placed
/// after the group's earlier survivors. The arena holds each row from its kept start on.
template <class vid_t, class eid_t>
__global__ void compose_old_sorted_kernel(ops_view_t<vid_t> ops, const int64_t* row_first_group,
                                          int64_t rows_count, const int64_t* chunk_at,
                                          int64_t chunks, old_rows_t<vid_t, eid_t> rows, int k,
                                          groups_t<vid_t> g, touched_t<vid_t> t, arena_t<vid_t> out,
                                          saved_slots_t<vid_t> saved) {
  const int lane = static_cast<int>(threadIdx.x & 31u);
  DYNG_WARP_STRIDE(c, chunks) {
    const int64_t x = row_of_chunk(chunk_at, rows_count, c);
    const int64_t gf = row_first_group[x], gl = row_first_group[x + 1];
    const int64_t ob = rows.first(t.row[x]);
    const int64_t first = t.kept[x] + (c - chunk_at[x]) * k_chunk_slots;
    const int64_t last =
        first + k_chunk_slots < t.old_size[x] ? first + k_chunk_slots : t.old_size[x];
    const int64_t base = out.at[x] - t.kept[x];
    for (int64_t s = first + lane; s < last; s += 32) {
      const vid_t col = rows.col[ob + s];
      const int64_t y = lower_bound_in(g.col, gf, gl, col);
      const int32_t* w = rows.weights + (ob + s) * k;
      saved.keep(x, t.kept[x], s, col, w, k);
      int64_t pos = 0;
      if (y < gl && g.col[y] == col) {
        const int64_t rank = s - g.first_copy[y];  // which copy of its column, in row order
        if (rank < g.erases[y]) continue;
        if (rank == g.erases[y] && g.reweight[y] >= 0) {
          w = ops.batch.ins_weights + g.reweight[y] * k;
        }
        pos = g.first_copy[y] - g.old_before[y] + g.new_before[y] + (rank - g.erases[y]);
      } else {
        const int64_t old_before = y < gl ? g.old_before[y] : t.old_total[x];
        const int64_t new_before = y < gl ? g.new_before[y] : t.new_total[x];
        pos = s - old_before + new_before;
      }
      put_slot(out, base + pos, col, w, k);
    }
  }
}

/// The old slots of the touched append rows, surviving ones kept in order (one warp per row, a
/// warp scan of the removed ones; with parallel edges a copy's rank among its column's copies
/// is counted as the scan goes).
template <class vid_t, class eid_t>
__global__ void compose_old_append_kernel(ops_view_t<vid_t> ops, const int64_t* row_first_group,
                                          int64_t count, old_rows_t<vid_t, eid_t> rows,
                                          bool parallel, int k, groups_t<vid_t> g,
                                          touched_t<vid_t> t, arena_t<vid_t> out,
                                          saved_slots_t<vid_t> saved) {
  const int lane = static_cast<int>(threadIdx.x & 31u);
  DYNG_WARP_STRIDE(x, count) {
    const int64_t gf = row_first_group[x], gl = row_first_group[x + 1];
    const int64_t ob = rows.first(t.row[x]);
    const int64_t size = t.old_size[x];
    const int64_t base = out.at[x];
    int64_t removed_so_far = 0;
    for (int64_t chunk = 0; chunk < size; chunk += 32) {
      const int64_t s = chunk + lane;
      const bool active = s < size;
      int64_t y = gl;
      bool match = false;
      vid_t c = 0;
      if (active) {
        c = rows.col[ob + s];
        y = lower_bound_in(g.col, gf, gl, c);
        match = y < gl && g.col[y] == c;
        saved.keep(x, 0, s, c, rows.weights + (ob + s) * k, k);
      }
      int64_t rank = 0;
      if (parallel) {
        const auto tag = static_cast<unsigned long long>(match ? y : -2 - lane);
        const unsigned peers = __match_any_sync(0xffffffffu, tag);
        if (match) rank = g.seen[y] + __popc(peers & lanes_below());
        __syncwarp();
        if (match && lane == __ffs(peers) - 1) g.seen[y] += __popc(peers);
        __syncwarp();
      }
      const bool removed = match && rank < g.erases[y];
      const int32_t* w = rows.weights + (ob + s) * k;
      if (match && rank == g.erases[y] && g.reweight[y] >= 0) {
        w = ops.batch.ins_weights + g.reweight[y] * k;
      }
      const unsigned gone = __ballot_sync(0xffffffffu, active && removed);
      const int64_t pos = s - removed_so_far - __popc(gone & lanes_below());
      removed_so_far += __popc(gone);
      if (active && !removed) put_slot(out, base + pos, c, w, k);
    }
  }
}

/// Surviving insertions of sorted rows, one thread per group: after the group's earlier survivors.
template <class vid_t>
__global__ void compose_new_sorted_kernel(ops_view_t<vid_t> ops, const int64_t* rop,
                                          const int64_t* group_start, int64_t groups,
                                          const int64_t* queue_pos, int k, groups_t<vid_t> g,
                                          const int64_t* kept, arena_t<vid_t> out) {
  DYNG_GRID_STRIDE(y, groups) {
    const int64_t x = g.row[y];
    const int64_t base = out.at[x] - kept[x] + g.first_copy[y] - g.old_before[y] + g.new_before[y];
    const int64_t h = g.erases[y];
    for (int64_t i = group_start[y]; i < group_start[y + 1]; ++i) {
      const int64_t q = queue_pos[i];
      if (q < h) continue;
      const int64_t item = ops.batch.index(ops.seq[rop[i] >> 1]);
      const int64_t from = q == h && g.reweight[y] >= 0 ? g.reweight[y] : item;
      put_slot(out, base + (q - h), g.col[y], ops.batch.ins_weights + from * k, k);
    }
  }
}

/// Surviving insertions of append rows, in (row, seq) order: after the row's surviving old slots.
/// `fresh` lists every row op, the survivors first (fresh_keys_kernel).
template <class vid_t>
__global__ void compose_new_append_kernel(ops_view_t<vid_t> ops, const int64_t* rop,
                                          const int64_t* fresh, const int64_t* survivor,
                                          int64_t count, const int64_t* fresh_at,
                                          const int64_t* queue_pos, const int64_t* rop_group, int k,
                                          groups_t<vid_t> g, touched_t<vid_t> t,
                                          arena_t<vid_t> out) {
  DYNG_GRID_STRIDE(j, count) {
    const int64_t i = fresh[j];
    if (survivor[i] == 0) continue;
    const int64_t y = rop_group[i];
    const int64_t x = g.row[y];
    const int64_t h = g.erases[y];
    const int64_t item = ops.batch.index(ops.seq[rop[i] >> 1]);
    const int64_t from = queue_pos[i] == h && g.reweight[y] >= 0 ? g.reweight[y] : item;
    const int64_t pos = t.old_size[x] - t.removed[x] + (j - fresh_at[x]);
    put_slot(out, out.at[x] + pos, g.col[y], ops.batch.ins_weights + from * k, k);
  }
}

/// Sort keys that order the surviving insertions of append rows by seq, then (stably) by row,
/// ahead of every other row op (keyed `sentinel` by row): so the survivors need no count on the
/// host. The first pass (by seq) starts from all row ops in order and writes `fresh` itself.
template <class vid_t, class key_t>
__global__ void fresh_keys_kernel(ops_view_t<vid_t> ops, const int64_t* rop,
                                  const int64_t* survivor, int64_t* fresh, int64_t count,
                                  bool by_row, key_t sentinel, key_t* keys) {
  DYNG_GRID_STRIDE(j, count) {
    if (!by_row) {
      fresh[j] = j;
      keys[j] = static_cast<key_t>(ops.seq[rop[j] >> 1]);
      continue;
    }
    const int64_t i = fresh[j];
    keys[j] = survivor[i] != 0 ? static_cast<key_t>(ops.row(rop[i])) : sentinel;
  }
}

/// Commits the touched rows' offsets: in place, or at their tail ranges; with a record
/// (`saved.row` set), keeps each row's old offsets there first.
template <class vid_t, class eid_t>
__global__ void place_offsets_kernel(int64_t count, touched_t<vid_t> t, int64_t tail_base,
                                     const int64_t* tail_at, eid_t* row_begin, eid_t* row_end,
                                     eid_t* row_capacity_end, int64_t* dest,
                                     saved_rows_t<vid_t, eid_t> saved) {
  DYNG_GRID_STRIDE(x, count) {
    const vid_t r = t.row[x];
    if (saved.row != nullptr) {
      saved.row[x] = r;
      saved.begin[x] = row_begin[r];
      saved.end[x] = row_end[r];
      saved.capacity_end[x] = row_capacity_end[r];
      saved.kept[x] = t.kept[x];
      saved.at[x] = saved.slot_at[x];
      if (x == count - 1) saved.at[count] = saved.slot_at[count];
    }
    const int64_t at = t.moved[x] > 0 ? tail_base + tail_at[x] : static_cast<int64_t>(row_begin[r]);
    dest[x] = at;
    if (t.moved[x] > 0) {
      row_begin[r] = static_cast<eid_t>(at);
      row_capacity_end[r] = static_cast<eid_t>(at + t.moved[x]);
    }
    row_end[r] = static_cast<eid_t>(at + t.new_size[x]);
  }
}

/// Copies the composed rows from the arena to their slots past their kept starts (one warp per
/// chunk of new slots).
template <class vid_t>
__global__ void place_slots_kernel(int64_t rows_count, const int64_t* chunk_at, int64_t chunks,
                                   touched_t<vid_t> t, const int64_t* dest, arena_t<vid_t> in,
                                   int k, vid_t* col, int32_t* weights) {
  const int lane = static_cast<int>(threadIdx.x & 31u);
  DYNG_WARP_STRIDE(c, chunks) {
    const int64_t x = row_of_chunk(chunk_at, rows_count, c);
    const int64_t rest = t.new_size[x] - t.kept[x];
    const int64_t first = (c - chunk_at[x]) * k_chunk_slots;
    const int64_t last = first + k_chunk_slots < rest ? first + k_chunk_slots : rest;
    const int64_t to = dest[x] + t.kept[x], from = in.at[x];
    for (int64_t j = first + lane; j < last; j += 32) {
      col[to + j] = in.col[from + j];
      for (int w = 0; w < k; ++w) weights[(to + j) * k + w] = in.weights[(from + j) * k + w];
    }
  }
}

/// Relayout: every row's size after the batch, and the touched index of each touched row.
template <class vid_t, class eid_t>
__global__ void sizes_after_kernel(old_rows_t<vid_t, eid_t> rows, int64_t n, int64_t* size,
                                   int64_t* touched_index) {
  DYNG_GRID_STRIDE(r, n) {
    size[r] = rows.size(r);
    touched_index[r] = -1;
  }
}

template <class vid_t>
__global__ void touched_sizes_kernel(touched_t<vid_t> t, int64_t count, int64_t* size,
                                     int64_t* touched_index) {
  DYNG_GRID_STRIDE(x, count) {
    size[t.row[x]] = t.new_size[x];
    touched_index[t.row[x]] = x;
  }
}

/// Capacity of each row in a fresh layout (capacity[n] = 0 for the exclusive sum's total).
__global__ inline void capacities_kernel(const int64_t* size, int64_t n, bool padded,
                                         double headroom, int64_t* capacity) {
  DYNG_GRID_STRIDE(r, n + 1) {
    capacity[r] = r == n   ? 0
                  : padded ? size[r] + ::dyng::detail::spare_slots(size[r], headroom)
                           : size[r];
  }
}

/// Writes a whole direction afresh (one warp per row): touched rows from their old slots up to
/// their kept start and from the arena after it, the others from their old slots; a row without
/// capacity gets offsets (0, 0, 0) as on the host.
template <class vid_t, class eid_t>
__global__ void relayout_kernel(old_rows_t<vid_t, eid_t> rows, int64_t n, const int64_t* size,
                                const int64_t* begin, const int64_t* touched_index,
                                const int64_t* kept, arena_t<vid_t> in, int k, eid_t* row_begin,
                                eid_t* row_end, eid_t* row_capacity_end, vid_t* col,
                                int32_t* weights) {
  const int lane = static_cast<int>(threadIdx.x & 31u);
  DYNG_WARP_STRIDE(r, n) {
    const int64_t s = size[r];
    const int64_t b = begin[r];
    const int64_t capacity = begin[r + 1] - b;
    const int64_t x = touched_index[r];
    // Slot j comes from the old row below `split`, from the arena (at j - split) above it.
    const int64_t split = x >= 0 ? kept[x] : s;
    const int64_t old_at = r < rows.n ? rows.first(r) : 0;
    const int64_t arena_at = x >= 0 ? in.at[x] : 0;
    for (int64_t j = lane; j < s; j += 32) {
      const bool old = j < split;
      const int64_t from = old ? old_at + j : arena_at + (j - split);
      col[b + j] = old ? rows.col[from] : in.col[from];
      const int32_t* src_w = old ? rows.weights + from * k : in.weights + from * k;
      for (int w = 0; w < k; ++w) weights[(b + j) * k + w] = src_w[w];
    }
    if (lane == 0) {
      row_begin[r] = static_cast<eid_t>(capacity > 0 ? b : 0);
      row_end[r] = static_cast<eid_t>(capacity > 0 ? b + s : 0);
      row_capacity_end[r] = static_cast<eid_t>(capacity > 0 ? b + capacity : 0);
    }
  }
}

#undef DYNG_GRID_STRIDE
#undef DYNG_WARP_STRIDE

}  // namespace dyng::cuda::detail
