// Graph.apply(): resolve the batch (no writes), then write the effective operations row by row.
//
// A touched row with few operations and room for its insertions is edited in place
// (edit_row_in_place: each operation moves only the suffix behind it). Any other touched row is
// recomposed by compose_row and stored back in place, or moved to the free tail when it outgrew
// its range (slots.hpp). Both give the same slots. A batch whose operations exceed a fraction of a
// direction's edges instead rebuilds that direction compactly from the same composed rows.
//
// Asked for an undo record (graph/apply_undo.hpp), apply() copies the touched rows of each
// direction before writing it, and the whole direction before a re-layout; revert() is in
// graph_revert.cpp.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dyng/backend/profile.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/core/radix_sort.hpp"
#include "dyng/core/share_scan.hpp"
#include "dyng/graph/detail/capacity.hpp"
#include "dyng/graph/detail/apply_tuning.hpp"
#include "dyng/graph/detail/batch_resolve.hpp"
#include "dyng/graph/detail/bucket_order.hpp"
#include "dyng/graph/detail/compose.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/core/log.hpp"
#include "dyng/graph/detail/row_pieces.hpp"
#include "dyng/graph/detail/slots.hpp"
#include "dyng/graph/detail/undo_rows.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng {
namespace detail {

apply_tuning_t& apply_tuning() {
  static apply_tuning_t tuning;
  return tuning;
}

namespace {

/// Stored copies of column c in row v, with the slot of the first in a sorted row.
template <class D, class vid_t>
copies_found_t count_copies(const D& d, int64_t v, vid_t c, bool sorted) {
  const auto* first = d.col.data() + d.row_begin[v];
  const auto* last = d.col.data() + d.row_end[v];
  if (sorted) {
    const auto [lo, hi] = std::equal_range(first, last, c);
    return {hi - lo, lo - d.col.data()};
  }
  return {std::count(first, last, c), -1};
}

/// Most operations per row that the in-place edit takes on: each one moves the row's suffix, so
/// many operations on one row are cheaper recomposed in one pass.
constexpr size_t k_edit_in_place_max_ops = 16;

/// Runs per thread of write_rows_on_team: enough that a run the cost estimate got wrong delays
/// the team by a fraction of a thread's share, few enough that joining their edits is free.
constexpr int64_t k_write_runs_per_thread = 8;

/// How often the row writes of a revertible apply ask whether to stop (Ctrl-C): every this many
/// touched rows, and before each run of a team's.
constexpr size_t k_write_poll_rows = 1024;
constexpr const char* k_write_stopped = "Graph.apply(): interrupted; nothing was changed";

/// True when row v takes its `count` operations (`inserts` of them insertions) by an in-place
/// edit: few enough, and room for every insertion in the row's range.
template <class D>
bool edits_in_place(const D& d, int64_t v, size_t count, int64_t inserts) {
  return count <= k_edit_in_place_max_ops &&
         static_cast<int64_t>(d.row_begin[v]) + row_size(d, v) + inserts <=
             static_cast<int64_t>(d.row_capacity_end[v]);
}

/// One touched row of a batch as write_rows_on_team() plans it. Trivial (no member defaults), so
/// that the plans of a large batch are allocated without one thread writing them all first; each
/// is written whole by the thread that plans it.
struct row_plan_t {
  size_t first;  ///< Its operations: ops[first, last).
  size_t last;
  int64_t inserts;
  int64_t new_size;
  bool in_place_edit;
  int64_t tail_slots;  ///< Slots it takes at the free tail when it moves there, else 0.
  int64_t cost;        ///< Slots its write moves, about (row_write_cost).
};

/// About how many slots writing a row moves: an in-place edit shifts the row's suffix once per
/// operation (half the row on average), a recomposed row is copied whole. Runs are balanced by
/// this, not by operation count: on skewed graphs a hub row with a few operations outweighs
/// thousands of short rows, and a team split by operations waits for the thread that drew it.
inline int64_t row_write_cost(int64_t size, int64_t ops, bool in_place_edit) {
  return 1 + ops + (in_place_edit ? ops * (size / 2) : size);
}

/// A direction's row operations as write_direction() takes them, with the batch's weights.
template <class vid_t>
struct direction_ops_t {
  std::span<const row_op_t<vid_t>> ops;
  const int32_t* batch_weights;
  int num_weights;
  bool sorted;
};

/// One thread's buffers for composing rows, reused row after row.
template <class vid_t>
struct row_write_scratch_t {
  compose_scratch_t<vid_t> compose;
  std::vector<const int32_t*> queue;
  std::vector<vid_t> cols;
  std::vector<int32_t> weights;
};

/// Appends the new content of row v, given its operations `row_ops`, to s.cols and s.weights.
/// A sorted row merges its operations ordered by (column, seq); an append row needs compose_row.
template <class D, class vid_t>
void compose_row_content(const D& d, const direction_ops_t<vid_t>& in, int64_t v,
                         std::span<const row_op_t<vid_t>> row_ops, row_write_scratch_t<vid_t>& s) {
  const int64_t k = in.num_weights;
  const int64_t b = d.row_begin[v];
  if (in.sorted) {
    compose_sorted_row<vid_t>(d.col.data() + b, d.weights.data() + b * k, row_size(d, v), row_ops,
                              in.batch_weights, in.num_weights, s.queue, s.cols, s.weights);
  } else {
    compose_row<vid_t>(d.col.data() + b, d.weights.data() + b * k, row_size(d, v), row_ops,
                       in.batch_weights, in.num_weights, in.sorted, s.compose, s.cols, s.weights);
  }
}

/// Edits row v in place by its operations `row_ops` (only the suffixes behind the changes move),
/// recording the edit with `recorder` when given.
template <class D, class vid_t>
void edit_row(D& d, const direction_ops_t<vid_t>& in, int64_t v,
              std::span<const row_op_t<vid_t>> row_ops, row_piece_recorder_t<vid_t>* recorder) {
  const int64_t k = in.num_weights;
  const int64_t b = d.row_begin[v];
  const int64_t size = row_size(d, v);
  if (recorder != nullptr) recorder->begin_row(size);
  const int64_t new_size =
      edit_row_in_place<vid_t>(d.col.data() + b, k > 0 ? d.weights.data() + b * k : nullptr, size,
                               row_ops, in.batch_weights, in.num_weights, in.sorted, recorder);
  d.row_end[v] = static_cast<typename decltype(d.row_end)::value_type>(b + new_size);
  if (recorder != nullptr) recorder->end_row(static_cast<vid_t>(v), new_size);
}

/// Where each operation range of `ops` that starts a row begins, found by the team (no row is
/// read yet): a row starts where the sorted operations change row. Fills row_start[0, count) and
/// returns count. One thread walking the operations is a visible part of a large apply on many
/// cores (bench/README.md, "Figures behind design choices").
template <class vid_t>
int64_t find_row_starts(std::span<const row_op_t<vid_t>> ops, int team, int64_t* row_start) {
  const auto n_ops = static_cast<int64_t>(ops.size());
  auto starts_row = [&](int64_t j) { return j == 0 || ops[j].row != ops[j - 1].row; };
  return scan_shares(
      n_ops, team,
      [&](int64_t lo, int64_t hi) {
        int64_t c = 0;
        for (int64_t j = lo; j < hi; ++j) c += starts_row(j) ? 1 : 0;
        return c;
      },
      [&](int64_t lo, int64_t hi, int64_t at) {
        for (int64_t j = lo; j < hi; ++j) {
          if (starts_row(j)) row_start[at++] = j;
        }
      });
}

/// Plans the `count` touched rows on the team: in-place edit, recomposed in its range, or moved
/// to the tail with moved_capacity() slots, exactly as store_row decides, and its write cost.
template <class D, class vid_t>
void plan_rows(const D& d, std::span<const row_op_t<vid_t>> ops, const int64_t* row_start,
               int64_t count, double headroom, int team, row_plan_t* rows) {
  const auto n_ops = static_cast<int64_t>(ops.size());
#pragma omp parallel for num_threads(team) schedule(static)
  for (int64_t i = 0; i < count; ++i) {
    row_plan_t& r = rows[i];
    r = row_plan_t{};
    r.first = static_cast<size_t>(row_start[i]);
    r.last = static_cast<size_t>(i + 1 < count ? row_start[i + 1] : n_ops);
    const int64_t v = ops[r.first].row;
    int64_t erases = 0;
    for (size_t j = r.first; j < r.last; ++j) {
      r.inserts += ops[j].kind == op_kind_t::insert ? 1 : 0;
      erases += ops[j].kind == op_kind_t::erase ? 1 : 0;
    }
    // Resolved operations are effective: each insertion adds a slot, each erase removes one.
    r.new_size = row_size(d, v) + r.inserts - erases;
    r.in_place_edit = edits_in_place(d, v, r.last - r.first, r.inserts);
    r.cost =
        row_write_cost(row_size(d, v), static_cast<int64_t>(r.last - r.first), r.in_place_edit);
    if (!r.in_place_edit && static_cast<int64_t>(d.row_begin[v]) + r.new_size >
                                static_cast<int64_t>(d.row_capacity_end[v])) {
      r.tail_slots = moved_capacity(r.new_size, headroom);
    }
  }
}

/// Running sum of part(rows[i]) over the `count` planned rows on the team: into[i] = base + the
/// sum before row i. Returns base + the whole sum.
template <class part_fn>
int64_t running_sum_of_rows(const row_plan_t* rows, int64_t count, int team, part_fn part,
                            int64_t* into, int64_t base) {
  return base + scan_shares(
                    count, team,
                    [&](int64_t lo, int64_t hi) {
                      int64_t sum = 0;
                      for (int64_t i = lo; i < hi; ++i) sum += part(rows[i]);
                      return sum;
                    },
                    [&](int64_t lo, int64_t hi, int64_t at) {
                      for (int64_t i = lo; i < hi; ++i) {
                        into[i] = base + at;
                        at += part(rows[i]);
                      }
                    });
}

/// Splits the rows into `runs` runs of consecutive rows with about equal write costs
/// (cost_before[i]: the cost of the rows before row i, cost_before[count] the total): runs + 1
/// offsets.
inline std::vector<int64_t> cost_balanced_runs(const int64_t* cost_before, int64_t count,
                                               int64_t runs) {
  std::vector<int64_t> run_start(static_cast<size_t>(runs) + 1, count);
  run_start[0] = 0;
  const double total_cost = static_cast<double>(cost_before[count]);
  for (int64_t r = 1, i = 0; r < runs; ++r) {
    const auto goal =
        static_cast<int64_t>(total_cost * static_cast<double>(r) / static_cast<double>(runs));
    while (i < count && cost_before[i] < goal) ++i;
    run_start[r] = i;
  }
  return run_start;
}

/// Writes one planned row: edited in place, or recomposed and stored in its range or at
/// `tail_at` in the tail. A recomposed row is listed in edits->rewritten when `edits` is given.
template <class D, class vid_t>
void write_planned_row(D& d, const direction_ops_t<vid_t>& in, const row_plan_t& r, int64_t tail_at,
                       row_write_scratch_t<vid_t>& s, row_piece_recorder_t<vid_t>* recorder,
                       row_edits_t<vid_t>* edits) {
  using eid_t = typename decltype(d.row_begin)::value_type;
  const auto row_ops = in.ops.subspan(r.first, r.last - r.first);
  const int64_t v = in.ops[r.first].row;
  if (r.in_place_edit) {
    edit_row(d, in, v, row_ops, recorder);
    return;
  }
  if (edits != nullptr) edits->rewritten.push_back(static_cast<vid_t>(v));
  s.cols.clear();
  s.weights.clear();
  compose_row_content(d, in, v, row_ops, s);
  if (static_cast<int64_t>(s.cols.size()) != r.new_size) {
    throw internal_error("Graph.apply(): row " + std::to_string(v) + " was planned with " +
                         std::to_string(r.new_size) + " slots but holds " +
                         std::to_string(s.cols.size()));
  }
  if (r.tail_slots > 0) {
    d.row_begin[v] = static_cast<eid_t>(tail_at);
    d.row_capacity_end[v] = static_cast<eid_t>(tail_at + r.tail_slots);
  }
  write_row_content(d, v, s.cols.data(), s.weights.data(), r.new_size, in.num_weights);
}

/// write_direction's per-row loop on an OpenMP team, for a batch that needs no relayout: each row
/// is planned first (plan_rows), the moved rows get their tail ranges in row order as the
/// sequential loop would hand them out, and then the rows, being disjoint, are written side by
/// side in runs of consecutive rows, each run recording its own row edits, joined in row order.
/// Returns false, having written nothing, when the moved rows would not fit the tail (the
/// sequential loop then re-lays out at the same row as always). Once stop() says so, the runs
/// not yet begun are left and interrupted_error is thrown after the team ends, rows part-written.
template <class D, class vid_t, class stop_fn>
bool write_rows_on_team(D& d, const direction_ops_t<vid_t>& in, double headroom,
                        row_edits_t<vid_t>* edits, int team, stop_fn& stop) {
  using eid_t = typename decltype(d.row_begin)::value_type;
  const auto n_ops = static_cast<int64_t>(in.ops.size());
  std::unique_ptr<int64_t[]> row_start(
      new int64_t[static_cast<size_t>(std::max<int64_t>(n_ops, 1))]);
  const int64_t count = find_row_starts(in.ops, team, row_start.get());
  const auto plans = static_cast<size_t>(std::max<int64_t>(count, 1));
  std::unique_ptr<row_plan_t[]> rows(new row_plan_t[plans]);
  plan_rows(d, in.ops, row_start.get(), count, headroom, team, rows.get());
  // Where each moved row lands in the tail, and the write cost before each row: running sums
  // on the team, for the same reason as the row starts.
  std::unique_ptr<int64_t[]> tail_at(new int64_t[plans]);
  std::unique_ptr<int64_t[]> cost_before(new int64_t[static_cast<size_t>(count) + 1]);
  const int64_t tail = running_sum_of_rows(
      rows.get(), count, team, [](const row_plan_t& r) { return r.tail_slots; }, tail_at.get(),
      static_cast<int64_t>(d.tail));
  cost_before[count] = running_sum_of_rows(
      rows.get(), count, team, [](const row_plan_t& r) { return r.cost; }, cost_before.get(), 0);
  if (tail > static_cast<int64_t>(d.col.size())) return false;

  // Runs of consecutive rows with about equal write costs (consecutive, so the recorded row
  // edits join in row order), several per thread, taken by the threads as they come free: the
  // cost is only an estimate (rows moved to the tail first touch fresh pages, which it does not
  // see, and on R-MAT graphs the empty high-id rows that every insertion moves come last).
  const int64_t runs = std::min<int64_t>(count, k_write_runs_per_thread * team);
  const std::vector<int64_t> run_start = cost_balanced_runs(cost_before.get(), count, runs);
  std::vector<row_edits_t<vid_t>> part_edits(edits != nullptr ? static_cast<size_t>(runs) : 0);
  std::vector<std::exception_ptr> failures(static_cast<size_t>(runs));
  std::atomic<bool> stopped{false};
#pragma omp parallel num_threads(team)
  {
    row_write_scratch_t<vid_t> scratch;
    // A worksharing loop, so every run is written whatever team OpenMP grants (one thread inside
    // an outer parallel region takes them all).
#pragma omp for schedule(dynamic, 1)
    for (int64_t run = 0; run < runs; ++run) {
      if (stopped.load(std::memory_order_relaxed) || stop()) {
        stopped.store(true, std::memory_order_relaxed);
        continue;
      }
      try {
        std::optional<row_piece_recorder_t<vid_t>> recorder;
        row_edits_t<vid_t>* run_edits = nullptr;
        if (edits != nullptr) {
          run_edits = &part_edits[run];
          run_edits->clear();
          recorder.emplace(*run_edits, in.num_weights);
        }
        for (int64_t i = run_start[run]; i < run_start[run + 1]; ++i) {
          write_planned_row(d, in, rows[i], tail_at[i], scratch, recorder ? &*recorder : nullptr,
                            run_edits);
        }
      } catch (...) {
        failures[run] = std::current_exception();
      }
    }
  }
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  if (stopped.load(std::memory_order_relaxed)) throw interrupted_error(k_write_stopped);
  d.tail = static_cast<eid_t>(tail);
  if (edits != nullptr) join_row_edits(*edits, part_edits, team);
  return true;
}

/// write_direction's per-row loop on one thread: a row with room for all its insertions and few
/// operations is edited in place (only the suffixes behind the changes move); otherwise it is
/// recomposed, and stored in place or moved by store_row exactly as write_rows_on_team() plans
/// it, so the layout does not depend on the path taken. Returns the number of relayouts.
template <class D, class vid_t, class before_relayout_fn, class stop_fn>
int64_t write_rows_in_order(D& d, const direction_ops_t<vid_t>& in, double headroom,
                            row_edits_t<vid_t>* edits, before_relayout_fn& before_relayout,
                            stop_fn& stop, row_write_scratch_t<vid_t>& s) {
  const auto ops = in.ops;
  int64_t relayouts = 0;
  std::optional<row_piece_recorder_t<vid_t>> recorder;
  if (edits != nullptr) {
    edits->clear();
    edits->recorded = true;
    recorder.emplace(*edits, in.num_weights);
  }
  for (size_t first = 0, rows = 0; first < ops.size(); ++rows) {
    if (rows % k_write_poll_rows == 0 && stop()) throw interrupted_error(k_write_stopped);
    size_t last = first;
    int64_t inserts = 0;
    while (last < ops.size() && ops[last].row == ops[first].row) {
      inserts += ops[last].kind == op_kind_t::insert ? 1 : 0;
      ++last;
    }
    const int64_t v = ops[first].row;
    const auto row_ops = ops.subspan(first, last - first);
    first = last;
    if (edits_in_place(d, v, row_ops.size(), inserts)) {
      edit_row(d, in, v, row_ops, recorder ? &*recorder : nullptr);
      continue;
    }
    if (edits != nullptr) edits->rewritten.push_back(static_cast<vid_t>(v));
    s.cols.clear();
    s.weights.clear();
    compose_row_content(d, in, v, row_ops, s);
    relayouts +=
        store_row(d, v, s.cols.data(), s.weights.data(), static_cast<int64_t>(s.cols.size()),
                  in.num_weights, headroom, before_relayout)
            ? 1
            : 0;
  }
  return relayouts;
}

/// Rebuilds a direction holding `stored` edges: composes every touched row into one arena, then
/// lays the direction out afresh. A device copy uploads the whole direction after this, so
/// nothing is recorded.
template <class D, class vid_t, class before_relayout_fn, class stop_fn>
void rebuild_direction(D& d, const direction_ops_t<vid_t>& in, double headroom, int64_t stored,
                       before_relayout_fn& before_relayout, stop_fn& stop,
                       row_write_scratch_t<vid_t>& s) {
  const auto ops = in.ops;
  const int64_t k = in.num_weights;
  const int64_t n = static_cast<int64_t>(d.row_begin.size());
  // At most every stored slot plus one per insertion: reserved, so the arena never regrows.
  s.cols.reserve(static_cast<size_t>(stored) + ops.size());
  s.weights.reserve((static_cast<size_t>(stored) + ops.size()) * static_cast<size_t>(k));
  std::vector<int64_t> arena_begin(static_cast<size_t>(n), -1);
  std::vector<int64_t> arena_size(static_cast<size_t>(n), 0);
  for (size_t first = 0, rows = 0; first < ops.size(); ++rows) {
    if (rows % k_write_poll_rows == 0 && stop()) throw interrupted_error(k_write_stopped);
    const int64_t v = ops[first].row;
    size_t last = first;
    while (last < ops.size() && ops[last].row == ops[first].row) ++last;
    arena_begin[v] = static_cast<int64_t>(s.cols.size());
    compose_row_content(d, in, v, ops.subspan(first, last - first), s);
    arena_size[v] = static_cast<int64_t>(s.cols.size()) - arena_begin[v];
    first = last;
  }
  auto spare = [&](int64_t, int64_t size) { return spare_slots(size, headroom); };
  before_relayout();
  layout_rows(
      d, in.num_weights,
      [&](int64_t v, bool padded) {
        if (arena_begin[v] < 0) return stored_row(d, in.num_weights, v, padded, spare);
        const int64_t size = arena_size[v];
        return row_source_t<vid_t>{s.cols.data() + arena_begin[v],
                                   s.weights.data() + arena_begin[v] * k, size,
                                   padded ? size + spare(v, size) : size};
      },
      headroom, 0);
}

/// Writes a direction's row operations into a direction holding `stored` edges: grouped by row,
/// and within a row by (column, seq) when the rows are sorted, by seq when they keep append
/// order (row_ops_in_write_order). Returns the number of full relayouts it performed, each after
/// a call of before_relayout(). With `edits`, records how each touched row changed (row_edits_t)
/// for device copies. With `team` > 1, a batch whose moved rows fit the free tail is written on
/// the team (write_rows_on_team); the slots come out the same. A batch whose operations exceed a
/// fraction of the direction's edges rebuilds it (rebuild_direction). stop() is asked every
/// k_write_poll_rows rows; once it says so, interrupted_error is thrown with the direction part-
/// written (the caller, holding an undo record, puts it back).
template <class D, class vid_t, class before_relayout_fn, class stop_fn>
int64_t write_direction(D& d, std::span<const row_op_t<vid_t>> ops, const int32_t* batch_weights,
                        int num_weights, bool sorted, double headroom, int64_t stored,
                        row_edits_t<vid_t>* edits, int team, before_relayout_fn&& before_relayout,
                        stop_fn&& stop) {
  const direction_ops_t<vid_t> in{ops, batch_weights, num_weights, sorted};
  const auto& tuning = apply_tuning();
  const auto count = static_cast<double>(ops.size());
  const bool rebuild = static_cast<int64_t>(ops.size()) >= tuning.rebuild_min_ops &&
                       count > tuning.rebuild_fraction * static_cast<double>(stored);
  if (!rebuild && team > 1 && write_rows_on_team(d, in, headroom, edits, team, stop)) return 0;
  row_write_scratch_t<vid_t> scratch;
  if (!rebuild) {
    return write_rows_in_order(d, in, headroom, edits, before_relayout, stop, scratch);
  }
  if (edits != nullptr) edits->clear();
  rebuild_direction(d, in, headroom, stored, before_relayout, stop, scratch);
  return 1;
}

/// Puts one direction's row operations, made from the resolved operations in key order, into
/// the order write_direction takes. A stable sort by row keeps, within each row, the order of
/// the keys, which is (column, seq): for out-rows of a directed graph trivially (row = key's
/// first id); for in-rows because keys ascend by source; for an undirected row x because the
/// keys (a, x) with a < x come before the keys (x, b), each group by ascending column. Append
/// rows then take their operations in seq order.
template <class vid_t>
void row_ops_in_write_order(std::vector<row_op_t<vid_t>>& ops, int64_t n, bool sorted, int team) {
  const auto by_row = [](const row_op_t<vid_t>& x, const row_op_t<vid_t>& y) {
    return x.row < y.row;
  };
  if (!std::is_sorted(ops.begin(), ops.end(), by_row)) {
    const auto row_of = [](const row_op_t<vid_t>& op) { return op.row; };
    if (team > 1) {
      std::vector<row_op_t<vid_t>> scratch;
      radix_sort_vector(ops, scratch, key_bits_below(n), row_of, team);
    } else {
      stable_sort_by_key(ops, n, row_of);
    }
  }
  if (sorted) return;
  for (size_t g = 0; g < ops.size();) {
    size_t h = g + 1;
    while (h < ops.size() && ops[h].row == ops[g].row) ++h;
    stable_sort_small(
        ops.begin() + g, ops.begin() + h,
        [](const row_op_t<vid_t>& x, const row_op_t<vid_t>& y) { return x.seq < y.seq; });
    g = h;
  }
}

/// The change log's entries in processing order: each resolved operation has its own seq below
/// `seqs`, so it is placed, not sorted. An undirected change is logged in both directions.
template <class vid_t>
void fill_change_log(const std::vector<row_op_t<vid_t>>& ops, int64_t seqs, bool directed,
                     std::vector<edge_change_t<vid_t>>& changes) {
  const auto kind_of = [](op_kind_t kind) {
    return kind == op_kind_t::insert  ? edge_change_kind_t::inserted
           : kind == op_kind_t::erase ? edge_change_kind_t::deleted
                                      : edge_change_kind_t::reweighted;
  };
  std::vector<int64_t> at_seq(static_cast<size_t>(seqs), -1);
  for (size_t j = 0; j < ops.size(); ++j) at_seq[static_cast<size_t>(ops[j].seq)] = j;
  changes.reserve(ops.size() * (directed ? 1 : 2));
  for (const int64_t j : at_seq) {
    if (j < 0) continue;
    const auto& op = ops[static_cast<size_t>(j)];
    changes.push_back({op.row, op.col, kind_of(op.kind)});
    if (!directed && op.row != op.col) changes.push_back({op.col, op.row, kind_of(op.kind)});
  }
}

/// The key of a resolved operation as record_inverse() groups them: (row, col), or {min, max}
/// for an undirected graph, whichever way round each operation names it.
struct inverse_keys_t {
  bool directed;

  template <class vid_t>
  std::pair<vid_t, vid_t> operator()(const row_op_t<vid_t>& op) const {
    return directed || op.row <= op.col ? std::pair{op.row, op.col} : std::pair{op.col, op.row};
  }
};

/// Starts of `runs` runs of ops that split only between key groups: runs + 1 offsets.
template <class vid_t>
std::vector<size_t> key_aligned_runs(const std::vector<row_op_t<vid_t>>& ops, int runs,
                                     const inverse_keys_t& key) {
  std::vector<size_t> start(static_cast<size_t>(runs) + 1, ops.size());
  start[0] = 0;
  for (int r = 1; r < runs; ++r) {
    size_t at = std::max(start[r - 1], ops.size() * static_cast<size_t>(r) / runs);
    while (at > start[r - 1] && at < ops.size() && key(ops[at]) == key(ops[at - 1])) ++at;
    start[r] = at;
  }
  return start;
}

/// Inverts one run of whole key groups of resolved operations (in key order) into `inverse`, the
/// weights of its insertions and reweights into `weights` (widx within this run's weights).
/// `out` is the out-direction before the batch is written: the weights a stored key had are read
/// from its slot there.
template <class D, class vid_t>
void invert_run(const D& out, std::span<const row_op_t<vid_t>> ops, const int32_t* batch_weights,
                int64_t k, const inverse_keys_t& key, std::vector<row_op_t<vid_t>>& inverse,
                std::vector<int32_t>& weights) {
  using op_t = row_op_t<vid_t>;
  inverse.reserve(ops.size());
  std::vector<int32_t> current(static_cast<size_t>(k));
  std::vector<op_t> taken_back;
  // Keys come in order, so a row's next search starts where its last one ended.
  vid_t searched_row = -1;
  const vid_t* from = nullptr;
  for (size_t g = 0; g < ops.size();) {
    size_t h = g + 1;
    while (h < ops.size() && key(ops[h]) == key(ops[g])) ++h;
    const auto [a, b] = key(ops[g]);
    // The key's weights before the batch, needed only when its first operation finds it
    // stored (an effective insertion finds it absent, and sets them itself); an erasure
    // carries the slot the resolve found (row_op_t::widx), a reweight is looked up.
    if (ops[g].kind != op_kind_t::insert && k > 0) {
      int64_t slot = ops[g].kind == op_kind_t::erase ? ops[g].widx : -1;
      if (slot < 0) {
        const vid_t* last = out.col.data() + out.row_end[a];
        if (a != searched_row) {
          searched_row = a;
          from = out.col.data() + out.row_begin[a];
        }
        from = std::lower_bound(from, last, b);
        slot = from - out.col.data();
      }
      std::copy_n(out.weights.data() + slot * k, k, current.begin());
    }
    taken_back.clear();
    auto inverse_of = [&](op_kind_t kind, const int32_t* with) {
      op_t op{a, b, 0, -1, kind, 0};
      if (with != nullptr && k > 0) {
        op.widx = static_cast<int64_t>(weights.size()) / k;  // within the part, for now
        weights.insert(weights.end(), with, with + k);
        op.weight = with[0];
      }
      taken_back.push_back(op);
    };
    for (size_t j = g; j < h; ++j) {
      const op_t& op = ops[j];
      switch (op.kind) {
        case op_kind_t::insert: inverse_of(op_kind_t::erase, nullptr); break;
        case op_kind_t::erase: inverse_of(op_kind_t::insert, current.data()); break;
        case op_kind_t::reweight: inverse_of(op_kind_t::reweight, current.data()); break;
      }
      const int32_t* written = op_weights(op, batch_weights, k);
      if (op.kind != op_kind_t::erase && written != nullptr) {
        std::copy_n(written, k, current.begin());
      }
    }
    inverse.insert(inverse.end(), taken_back.rbegin(), taken_back.rend());
    g = h;
  }
}

/// Joins the runs' inverses in order into `undo` (`total` operations), numbering them in that
/// order and moving each run's weight indices past the runs before it.
template <class vid_t, class eid_t>
void join_inverse_parts(const std::vector<std::vector<row_op_t<vid_t>>>& parts,
                        const std::vector<std::vector<int32_t>>& part_weights, int64_t k,
                        size_t total, apply_undo_t<vid_t, eid_t>& undo) {
  undo.by_inverse = true;
  undo.inverse.clear();
  undo.inverse.reserve(total);
  undo.inverse_weights.clear();
  for (size_t r = 0; r < parts.size(); ++r) {
    const int64_t base = k > 0 ? static_cast<int64_t>(undo.inverse_weights.size()) / k : 0;
    for (row_op_t<vid_t> op : parts[r]) {
      op.seq = static_cast<int64_t>(undo.inverse.size());
      if (op.widx >= 0) op.widx += base;
      undo.inverse.push_back(op);
    }
    undo.inverse_weights.insert(undo.inverse_weights.end(), part_weights[r].begin(),
                                part_weights[r].end());
  }
}

/// Throws before anything is written when the resolved operations could overflow the slot
/// offsets of a graph holding `num_edges` edges, or growing it from `n_before` vertices would not
/// fit in memory.
template <class eid_t, class vid_t>
void check_room_for(const resolved_batch_t<vid_t>& resolved, const graph_properties_t& props,
                    int64_t num_edges, int64_t n_before) {
  // Upper bound on any intermediate edge count, so no write can overflow the offsets.
  const int64_t mult = props.directed ? 1 : 2;
  check_slot_count<eid_t>(num_edges + mult * resolved.insert_ops, "Graph.apply()");
  if (resolved.num_vertices_after > n_before) {
    check_memory(growth_bytes<eid_t>(n_before, resolved.num_vertices_after,
                                     static_cast<int64_t>(resolved.ops.size()),
                                     props.directed && props.store_transposed ? 2 : 1),
                 growth_largest_block<eid_t>(resolved.num_vertices_after),
                 "growing the graph from " + std::to_string(n_before) + " to " +
                     std::to_string(resolved.num_vertices_after) + " vertices",
                 "Graph.apply()");
  }
}

/// Fills `log` for a batch of `entries` entries resolved on a graph of `n_before` vertices.
template <class vid_t>
void start_change_log(const resolved_batch_t<vid_t>& resolved, int64_t entries, vid_t n_before,
                      bool directed, change_log_t<vid_t>& log) {
  log.clear();
  log.num_vertices_before = n_before;
  log.num_vertices_after = static_cast<vid_t>(resolved.num_vertices_after);
  fill_change_log(resolved.ops, entries, directed, log.changes);
}

/// Counts an apply of `entries` batch entries in the profile and logs its relayouts (info) and
/// its effective operations and team (debug).
inline void report_apply(size_t entries, size_t effective_ops, int64_t relayouts, size_t slots,
                         int team) {
  count_in_profile("graph.apply.entries", static_cast<int64_t>(entries));
  if (relayouts > 0) {
    count_in_profile("graph.relayouts", relayouts);
    ::dyng::log(log_level_t::info, [&] {
      return "Graph.apply(): the batch (" + std::to_string(entries) +
             " entries) outgrew the rows' spare slots and the free tail; " +
             std::to_string(relayouts) + " direction(s) re-laid out (" + std::to_string(slots) +
             " slots out)";
    });
  }
  ::dyng::log(log_level_t::debug, [&] {
    return "Graph.apply(): " + std::to_string(effective_ops) + " effective operations on " +
           (team > 1 ? "an OpenMP team of " + std::to_string(team) : std::string("one thread"));
  });
}

/// Where apply() records a direction's row edits: in `log` when its caller asked for them
/// (change_log_t::record_row_edits), else nowhere (they would cost the write for no reader).
template <class vid_t>
row_edits_t<vid_t>* row_edits(change_log_t<vid_t>* log,
                              row_edits_t<vid_t> change_log_t<vid_t>::* which) {
  return log != nullptr && log->record_row_edits ? &(log->*which) : nullptr;
}

}  // namespace
}  // namespace detail

template <class vid_t, class eid_t>
void graph_t<vid_t, eid_t>::start_undo(apply_undo_t<vid_t, eid_t>& undo) const {
  undo.recorded = false;
  undo.by_inverse = false;
  undo.inverse.clear();
  undo.inverse_weights.clear();
  for (auto* record : {&undo.out, &undo.in}) {
    record->rows.clear();
    record->at.assign(1, 0);
    record->whole.reset();
  }
  undo.out.tail = out_.tail;
  undo.in.tail = in_.tail;
  undo.num_vertices = num_vertices_;
  undo.num_edges = num_edges_;
  undo.version = version_;
  undo.relayouts = relayouts_;
}

template <class vid_t, class eid_t>
void graph_t<vid_t, eid_t>::grow_vertices(vid_t n, apply_undo_t<vid_t, eid_t>* undo) {
  if (undo != nullptr) start_undo(*undo);
  if (n <= num_vertices_) return;
  detail::grow_rows(out_, n);
  if (props_.directed && props_.store_transposed) detail::grow_rows(in_, n);
  num_vertices_ = n;
  ++version_;
  if (undo != nullptr) undo->recorded = true;
}

template <class vid_t, class eid_t>
template <class ops_t>
void graph_t<vid_t, eid_t>::write_ops(ops_t& ops, const int32_t* batch_weights, int64_t n_after,
                                      change_log_t<vid_t>* log, int team,
                                      apply_undo_t<vid_t, eid_t>* snapshot, cancel_token_t cancel) {
  const bool sorted = props_.order == edge_order_t::sorted;
  const bool transposed = props_.directed && props_.store_transposed;
  using undo_t = apply_undo_t<vid_t, eid_t>;
  // With row copies the writes can be stopped too: what they wrote is put back from them.
  auto stop = [&] { return snapshot != nullptr && cancel.requested(); };
  // Keeps a direction whole before a re-layout moves every row (once: the row copies cover the
  // rows written before it).
  auto keep_whole = [snapshot](const direction_t& d,
                               typename undo_t::direction_record_t undo_t::* of) {
    if (snapshot != nullptr && !(snapshot->*of).whole) (snapshot->*of).whole = d;
  };
  if (n_after > static_cast<int64_t>(out_.row_begin.size())) {
    detail::grow_rows(out_, n_after);
    if (transposed) detail::grow_rows(in_, n_after);
  }
  // The out-rows of a directed graph take the resolved operations as they are (the order stays
  // fit for the in-rows below, row_ops_in_write_order); an undirected row takes both directions.
  std::vector<detail::row_op_t<vid_t>> row_ops;
  if (!props_.directed) {
    row_ops.reserve(ops.size() * 2);
    for (const auto& op : ops) {
      row_ops.push_back(op);
      if (op.row != op.col)
        row_ops.push_back({op.col, op.row, op.seq, op.widx, op.kind, op.weight});
    }
  }
  auto& out_ops = props_.directed ? ops : row_ops;
  using log_t = change_log_t<vid_t>;
  stage_scope_t write_stage("graph.write_rows");
  try {
    detail::row_ops_in_write_order(out_ops, n_after, sorted, team);
    const std::span<const detail::row_op_t<vid_t>> out_span(out_ops);
    if (snapshot != nullptr) {
      detail::record_touched_rows(out_, out_span, props_.num_weights, team, snapshot->out);
    }
    relayouts_ += detail::write_direction(
        out_, out_span, batch_weights, props_.num_weights, sorted, props_.headroom, num_edges_,
        detail::row_edits(log, &log_t::out_edits), team, [&] { keep_whole(out_, &undo_t::out); },
        stop);
    if (transposed) {
      row_ops.reserve(ops.size());
      for (const auto& op : ops) {
        row_ops.push_back({op.col, op.row, op.seq, op.widx, op.kind, op.weight});
      }
      detail::row_ops_in_write_order(row_ops, n_after, sorted, team);
      const std::span<const detail::row_op_t<vid_t>> in_span(row_ops);
      if (snapshot != nullptr) {
        detail::record_touched_rows(in_, in_span, props_.num_weights, team, snapshot->in);
      }
      relayouts_ += detail::write_direction(
          in_, in_span, batch_weights, props_.num_weights, sorted, props_.headroom, num_edges_,
          detail::row_edits(log, &log_t::in_edits), team, [&] { keep_whole(in_, &undo_t::in); },
          stop);
    }
  } catch (const interrupted_error&) {
    restore(*snapshot);  // only writes with row copies stop here
    throw;
  }
}

/// The inverse of `ops` (resolved operations in key order) for revert(): per key, the
/// operations taken back last to first (an insertion erased, an erasure inserted again with the
/// weights it removed, a reweight given the old weights back), in key order. The weights a key
/// had before the batch come from its slot in the out-row (one binary search; rows are sorted
/// and hold each key once); within the batch each operation leaves the next its weights.
template <class vid_t, class eid_t>
template <class ops_t>
void graph_t<vid_t, eid_t>::record_inverse(const ops_t& ops, const int32_t* batch_weights, int team,
                                           apply_undo_t<vid_t, eid_t>& undo) const {
  using op_t = detail::row_op_t<vid_t>;
  const int64_t k = props_.num_weights;
  const detail::inverse_keys_t keys{props_.directed};
  // Runs of whole key groups, one per thread; each inverts its own into parts joined in order.
  const int runs = std::max(1, team);
  const std::vector<size_t> start = detail::key_aligned_runs(ops, runs, keys);
  std::vector<std::vector<op_t>> parts(static_cast<size_t>(runs));
  std::vector<std::vector<int32_t>> part_weights(static_cast<size_t>(runs));
  std::vector<std::exception_ptr> failures(static_cast<size_t>(runs));
#pragma omp parallel for num_threads(runs) schedule(static, 1) if (runs > 1)
  for (int r = 0; r < runs; ++r) {
    try {
      detail::invert_run(out_,
                         std::span<const op_t>(ops).subspan(start[r], start[r + 1] - start[r]),
                         batch_weights, k, keys, parts[r], part_weights[r]);
    } catch (...) {
      failures[r] = std::current_exception();  // std::bad_alloc, rethrown below
    }
  }
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  detail::join_inverse_parts(parts, part_weights, k, ops.size(), undo);
}

template <class vid_t, class eid_t>
void graph_t<vid_t, eid_t>::revert_by_inverse(apply_undo_t<vid_t, eid_t>& undo) {
  // The inverse written as a batch is; then the rows of vertices the batch added go (they are
  // empty again; zeroed as a smaller zeroed_array keeps them).
  write_ops(undo.inverse, undo.inverse_weights.data(), num_vertices_, nullptr, 1, nullptr, {});
  const auto rows = static_cast<size_t>(undo.num_vertices);
  for (auto* d : {&out_, &in_}) {
    if (d->row_begin.size() <= rows) continue;
    d->row_begin.resize(rows);
    d->row_end.resize(rows);
    d->row_capacity_end.resize(rows);
  }
  num_vertices_ = undo.num_vertices;
  num_edges_ = undo.num_edges;
  version_ = undo.version;
  undo.recorded = false;
  undo.inverse.clear();
  undo.inverse_weights.clear();
}

template <class vid_t, class eid_t>
apply_summary_t graph_t<vid_t, eid_t>::apply(const edge_batch_t<vid_t>& batch,
                                             change_log_t<vid_t>* log, const execution_t& exec,
                                             apply_undo_t<vid_t, eid_t>* undo) {
  stage_scope_t apply_stage("graph.apply");
  const bool sorted = props_.order == edge_order_t::sorted;
  const int64_t n_before = num_vertices_;
  const int64_t relayouts_before = relayouts_;
  const int team =
      host_team_size(exec, static_cast<int64_t>(batch.insert_src.size() + batch.delete_src.size()),
                     detail::apply_tuning().parallel_min_changes);
  auto resolved = [&] {
    stage_scope_t resolve_stage("graph.resolve");
    return detail::resolve_batch(
        batch, props_, n_before,
        [&](vid_t u, vid_t v) { return detail::count_copies(out_, u, v, sorted); },
        detail::k_error_probe_ops, team, exec.cancel);
  }();
  detail::check_room_for<eid_t>(resolved, props_, static_cast<int64_t>(num_edges_), n_before);
  // The resolve is most of a large batch's time; past it the batch is written.
  throw_if_cancelled(exec, "Graph.apply()");

  // Nothing below throws except std::bad_alloc.
  if (log != nullptr) {
    stage_scope_t log_stage("graph.change_log");
    detail::start_change_log(resolved,
                             static_cast<int64_t>(batch.delete_src.size()) +
                                 static_cast<int64_t>(batch.insert_src.size()),
                             num_vertices_, props_.directed, *log);
  }

  const int64_t n_after = resolved.num_vertices_after;
  if (undo != nullptr) {
    start_undo(*undo);
    // Sorted rows without parallel edges hold each (u, v) once, in column order: the batch's
    // inverse puts them back exactly, and it costs a look-up per operation where copies of the
    // touched rows cost their slots (R-MAT 22's hub rows: 18 MB for 1,000 changes).
    if (sorted && !props_.allow_parallel_edges) {
      stage_scope_t undo_stage("graph.undo_record");
      record_inverse(resolved.ops, batch.insert_weights.data(), team, *undo);
    }
  }
  write_ops(resolved.ops, batch.insert_weights.data(), n_after, log, team,
            undo != nullptr && !undo->by_inverse ? undo : nullptr, exec.cancel);
  // The summary counts stored copies (both directions of an undirected edge, a self-loop once).
  num_edges_ = static_cast<eid_t>(static_cast<int64_t>(num_edges_) +
                                  resolved.summary.inserted_edges - resolved.summary.deleted_edges);
  num_vertices_ = static_cast<vid_t>(n_after);
  ++version_;
  if (undo != nullptr) undo->recorded = true;
  detail::report_apply(batch.insert_src.size() + batch.delete_src.size(), resolved.ops.size(),
                       relayouts_ - relayouts_before, out_.col.size(), team);
  return resolved.summary;
}

#define DYNG_INSTANTIATE_APPLY(V, E)                                                      \
  template apply_summary_t graph_t<V, E>::apply(const edge_batch_t<V>&, change_log_t<V>*, \
                                                const execution_t&, apply_undo_t<V, E>*); \
  template void graph_t<V, E>::grow_vertices(V, apply_undo_t<V, E>*);                     \
  template void graph_t<V, E>::revert_by_inverse(apply_undo_t<V, E>&);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_APPLY)

}  // namespace dyng
