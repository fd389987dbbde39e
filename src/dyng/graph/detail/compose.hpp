// Rewrites one row under a sequence of resolved edge operations, producing the row's new content.
//
// Every recomposing write path of apply() (rows moved to the tail, the full rebuild of a large
// batch) goes through compose_row, or compose_sorted_row for sorted rows (the same slots by one
// merge), and edit_row_in_place produces the same slots again; the tests compare the paths.
// Semantics per column c, matching what the batch resolution assumed: erase removes the FIRST
// remaining copy of c, reweight rewrites the first copy, insert adds a copy after all existing
// copies of c. A sorted row stays sorted (copies of one column in arrival order); an append row
// keeps its surviving slots in place and lists new slots at the end in operation order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "dyng/graph/detail/row_pieces.hpp"

namespace dyng::detail {

enum class op_kind_t : uint8_t { erase, insert, reweight };

/// One resolved change of one row. `seq` orders operations within the batch; `widx` is the
/// insertion whose weights an insert/reweight writes, and for an erase the slot of the key's
/// first stored copy before the batch when the resolve knew it (else -1; nothing writes by it).
template <class vid_t>
struct row_op_t {
  vid_t row;
  vid_t col;
  int64_t seq;
  int64_t widx;
  op_kind_t kind;
  int32_t weight;  ///< The insertion's weight when K == 1 (see op_weights).
};

/// The weights an insert or reweight writes: carried in the operation when K == 1, so that
/// composing the rows of a large batch reads no batch array at random positions; else the
/// batch's weight row widx. Null when the graph is unweighted.
template <class vid_t>
const int32_t* op_weights(const row_op_t<vid_t>& op, const int32_t* batch_weights, int64_t k) {
  if (k == 0) return nullptr;
  return k == 1 ? &op.weight : batch_weights + op.widx * k;
}

/// Reusable buffers, so composing many small rows does not allocate per row.
template <class vid_t>
struct compose_scratch_t {
  struct item_t {
    int64_t origin;  ///< Slot index within the old row, or -1 for a new slot.
    int64_t order;   ///< Operation index of a new slot (append order of new slots).
    const int32_t* weights;
  };
  std::vector<vid_t> touched;  ///< Columns the operations name, sorted, unique.
  std::vector<int64_t> offset, head, tail_pos;
  std::vector<item_t> items;
  std::vector<int64_t> slot_state;  ///< Old slots: -2 untouched, -1 removed, else item index.
  std::vector<int64_t> fresh;       ///< Surviving new items (append order).
};

/// Appends one slot (column c, k weights from w) to out_cols / out_weights.
template <class vid_t>
void append_slot(std::vector<vid_t>& out_cols, std::vector<int32_t>& out_weights, vid_t c,
                 const int32_t* w, int64_t k) {
  out_cols.push_back(c);
  for (int64_t i = 0; i < k; ++i) out_weights.push_back(w[i]);
}

/// The index of column c among s.touched, or -1.
template <class vid_t>
int64_t touched_index(const compose_scratch_t<vid_t>& s, vid_t c) {
  const auto it = std::lower_bound(s.touched.begin(), s.touched.end(), c);
  return it != s.touched.end() && *it == c ? it - s.touched.begin() : -1;
}

/// compose_row's index: s.touched (the columns the operations name), and per touched column a
/// queue of its copies, old ones in row order, then its insertions, in s.items[head[c],
/// tail_pos[c]) once the operations are replayed (an erase pops the head, a reweight rewrites
/// it). s.slot_state marks the old slots: -2 untouched, -1 a touched column's copy.
template <class vid_t>
void queue_row_copies(const vid_t* cols, const int32_t* weights, int64_t size,
                      std::span<const row_op_t<vid_t>> ops, const int32_t* batch_weights, int64_t k,
                      compose_scratch_t<vid_t>& s) {
  auto slot_weights = [&](int64_t slot) { return k > 0 ? weights + slot * k : nullptr; };
  auto weights_of = [&](const row_op_t<vid_t>& op) { return op_weights(op, batch_weights, k); };
  s.touched.clear();
  for (const auto& op : ops) s.touched.push_back(op.col);
  std::sort(s.touched.begin(), s.touched.end());
  s.touched.erase(std::unique(s.touched.begin(), s.touched.end()), s.touched.end());
  const int64_t t = static_cast<int64_t>(s.touched.size());

  s.offset.assign(static_cast<size_t>(t) + 1, 0);
  s.slot_state.assign(static_cast<size_t>(size), -2);
  for (int64_t i = 0; i < size; ++i) {
    const int64_t c = touched_index(s, cols[i]);
    if (c >= 0) {
      ++s.offset[c + 1];
      s.slot_state[i] = -1;
    }
  }
  for (const auto& op : ops) {
    if (op.kind == op_kind_t::insert) ++s.offset[touched_index(s, op.col) + 1];
  }
  for (int64_t c = 0; c < t; ++c) s.offset[c + 1] += s.offset[c];
  s.head.assign(s.offset.begin(), s.offset.end() - 1);
  s.tail_pos.assign(s.offset.begin(), s.offset.end() - 1);
  s.items.resize(static_cast<size_t>(s.offset[t]));
  for (int64_t i = 0; i < size; ++i) {
    if (s.slot_state[i] == -1) {
      const int64_t c = touched_index(s, cols[i]);
      s.items[s.tail_pos[c]++] = {i, -1, slot_weights(i)};
    }
  }
  for (size_t j = 0; j < ops.size(); ++j) {
    const auto& op = ops[j];
    const int64_t c = touched_index(s, op.col);
    switch (op.kind) {
      case op_kind_t::erase: ++s.head[c]; break;
      case op_kind_t::reweight: s.items[s.head[c]].weights = weights_of(op); break;
      case op_kind_t::insert:
        s.items[s.tail_pos[c]++] = {-1, static_cast<int64_t>(j), weights_of(op)};
        break;
    }
  }
}

/// compose_row's output for a sorted row: old slots of smaller, untouched columns first; then
/// each touched column's queue replaces its old copies.
template <class vid_t>
void emit_sorted_from_queues(const vid_t* cols, const int32_t* weights, int64_t size, int64_t k,
                             const compose_scratch_t<vid_t>& s, std::vector<vid_t>& out_cols,
                             std::vector<int32_t>& out_weights) {
  auto slot_weights = [&](int64_t slot) { return k > 0 ? weights + slot * k : nullptr; };
  const int64_t t = static_cast<int64_t>(s.touched.size());
  int64_t i = 0;
  for (int64_t c = 0; c <= t; ++c) {
    while (i < size && (c == t || cols[i] < s.touched[c])) {
      append_slot(out_cols, out_weights, cols[i], slot_weights(i), k);
      ++i;
    }
    if (c == t) break;
    while (i < size && cols[i] == s.touched[c]) ++i;
    for (int64_t q = s.head[c]; q < s.tail_pos[c]; ++q) {
      append_slot(out_cols, out_weights, s.touched[c], s.items[q].weights, k);
    }
  }
}

/// compose_row's output for an append-order row: surviving old slots where they were (with their
/// new weights), then the surviving insertions in append order.
template <class vid_t>
void emit_append_from_queues(const vid_t* cols, const int32_t* weights, int64_t size, int64_t k,
                             std::span<const row_op_t<vid_t>> ops, compose_scratch_t<vid_t>& s,
                             std::vector<vid_t>& out_cols, std::vector<int32_t>& out_weights) {
  auto slot_weights = [&](int64_t slot) { return k > 0 ? weights + slot * k : nullptr; };
  const int64_t t = static_cast<int64_t>(s.touched.size());
  s.fresh.clear();
  for (int64_t c = 0; c < t; ++c) {
    for (int64_t q = s.head[c]; q < s.tail_pos[c]; ++q) {
      if (s.items[q].origin >= 0) {
        s.slot_state[s.items[q].origin] = q;
      } else {
        s.fresh.push_back(q);
      }
    }
  }
  for (int64_t i = 0; i < size; ++i) {
    if (s.slot_state[i] == -2) {
      append_slot(out_cols, out_weights, cols[i], slot_weights(i), k);
    } else if (s.slot_state[i] >= 0) {
      append_slot(out_cols, out_weights, cols[i], s.items[s.slot_state[i]].weights, k);
    }
  }
  std::sort(s.fresh.begin(), s.fresh.end(),
            [&](int64_t a, int64_t b) { return s.items[a].order < s.items[b].order; });
  for (const int64_t q : s.fresh) {
    append_slot(out_cols, out_weights, ops[s.items[q].order].col, s.items[q].weights, k);
  }
}

/// Appends the new content of a row (old content cols/weights with `size` slots, operations
/// `ops` in seq order) to out_cols / out_weights.
template <class vid_t>
void compose_row(const vid_t* cols, const int32_t* weights, int64_t size,
                 std::span<const row_op_t<vid_t>> ops, const int32_t* batch_weights,
                 int num_weights, bool sorted, compose_scratch_t<vid_t>& s,
                 std::vector<vid_t>& out_cols, std::vector<int32_t>& out_weights) {
  const int64_t k = num_weights;
  queue_row_copies(cols, weights, size, ops, batch_weights, k, s);
  if (sorted) {
    emit_sorted_from_queues(cols, weights, size, k, s, out_cols, out_weights);
  } else {
    emit_append_from_queues(cols, weights, size, k, ops, s, out_cols, out_weights);
  }
}

/// compose_row for a sorted row, as one merge: the row's operations must come ordered by
/// (column, seq) (`ops`), so each touched column's copy queue (old copies, then insertions) is
/// replayed where the merge meets it. Same slots as compose_row, without its per-row index.
template <class vid_t>
void compose_sorted_row(const vid_t* cols, const int32_t* weights, int64_t size,
                        std::span<const row_op_t<vid_t>> ops, const int32_t* batch_weights,
                        int num_weights, std::vector<const int32_t*>& queue,
                        std::vector<vid_t>& out_cols, std::vector<int32_t>& out_weights) {
  const int64_t k = num_weights;
  auto emit = [&](vid_t c, const int32_t* w) {
    out_cols.push_back(c);
    for (int64_t i = 0; i < k; ++i) out_weights.push_back(w[i]);
  };
  auto slot_weights = [&](int64_t slot) { return k > 0 ? weights + slot * k : nullptr; };
  int64_t i = 0;
  for (size_t j = 0; j < ops.size();) {
    const vid_t c = ops[j].col;
    while (i < size && cols[i] < c) {  // untouched columns before c
      emit(cols[i], slot_weights(i));
      ++i;
    }
    queue.clear();  // column c's copies: the old ones in row order, then insertions
    while (i < size && cols[i] == c) queue.push_back(slot_weights(i++));
    size_t head = 0;
    for (; j < ops.size() && ops[j].col == c; ++j) {
      const auto& op = ops[j];
      const int32_t* w = op_weights(op, batch_weights, k);
      switch (op.kind) {
        case op_kind_t::erase: ++head; break;  // the resolution guarantees a copy is left
        case op_kind_t::reweight: queue[head] = w; break;
        case op_kind_t::insert: queue.push_back(w); break;
      }
    }
    for (size_t q = head; q < queue.size(); ++q) emit(c, queue[q]);
  }
  for (; i < size; ++i) emit(cols[i], slot_weights(i));
}

/// Applies a row's operations (seq order) to the row in place, one at a time, leaving exactly the
/// slots compose_row would produce: erase / reweight act on the first remaining copy of their
/// column, an insertion goes after the column's copies (sorted) or at the row's end (append).
/// Each operation moves only the row's suffix behind its position (binary search finds it in a
/// sorted row), so a few operations on a long row cost a few memmoves instead of a recomposed
/// row. The row's range must have room for `size` plus the insertions; returns the new size.
/// With a `recorder`, the edit is also recorded as pieces (row_pieces.hpp) for device copies.
///
/// A sorted row whose operations are all erases and reweights (the common case of a long row:
/// deletions of existing edges land on rows in proportion to their size, insertions by vertex)
/// is compacted in one pass instead (compact_row_in_place()).
template <class vid_t>
int64_t edit_row_in_place(vid_t* cols, int32_t* weights, int64_t size,
                          std::span<const row_op_t<vid_t>> ops, const int32_t* batch_weights,
                          int num_weights, bool sorted,
                          row_piece_recorder_t<vid_t>* recorder = nullptr);

/// edit_row_in_place() one operation at a time, whatever the operations (each moves the suffix
/// behind it).
template <class vid_t>
int64_t edit_row_one_at_a_time(vid_t* cols, int32_t* weights, int64_t size,
                               std::span<const row_op_t<vid_t>> ops, const int32_t* batch_weights,
                               int num_weights, bool sorted, row_piece_recorder_t<vid_t>* recorder);

/// edit_row_in_place() for a sorted row and operations (ascending by column, then seq, as
/// row_ops_in_write_order() leaves them) that erase or reweight only: each operation's slot is
/// found by a binary search from where the previous one left off, and the kept slots between two
/// erased ones move left once, by the erases before them. A row of s slots with e erases moves
/// s slots at most instead of about e * s / 2 (R-MAT 22, 100,000 changes: the in-place edits
/// moved 39 million slots per direction). The slots and the recorded pieces are the ones the
/// one-at-a-time edit gives: an operation acts on the first remaining copy of its column, which
/// in the original row is the first one at or after the last slot an erase removed or a
/// reweight wrote, and its position now is its original one less the erases before it.
template <class vid_t>
int64_t compact_row_in_place(vid_t* cols, int32_t* weights, int64_t size,
                             std::span<const row_op_t<vid_t>> ops, const int32_t* batch_weights,
                             int num_weights, row_piece_recorder_t<vid_t>* recorder) {
  const int64_t k = num_weights;
  auto move_left = [&](int64_t from, int64_t to, int64_t by) {  // slots [from, to) go `by` left
    if (by == 0 || to <= from) return;
    const auto count = static_cast<size_t>(to - from);
    std::memmove(cols + from - by, cols + from, sizeof(vid_t) * count);
    if (k > 0) {
      std::memmove(weights + (from - by) * k, weights + from * k, sizeof(int32_t) * count * k);
    }
  };
  int64_t removed = 0;
  int64_t kept_from = 0;  // original index of the first slot not yet moved
  for (const auto& op : ops) {
    // The batch resolution guarantees a remaining copy of op.col here.
    const int64_t pos = std::lower_bound(cols + kept_from, cols + size, op.col) - cols;
    move_left(kept_from, pos, removed);
    if (op.kind == op_kind_t::reweight) {
      const int32_t* w = op_weights(op, batch_weights, k);
      if (k > 0) std::memcpy(weights + pos * k, w, sizeof(int32_t) * k);
      if (recorder != nullptr) recorder->reweight(pos - removed, op.col, w);
      kept_from = pos;  // the slot stays, and moves with the ones after it
      continue;
    }
    if (recorder != nullptr) recorder->erase(pos - removed);
    ++removed;
    kept_from = pos + 1;
  }
  move_left(kept_from, size, removed);
  return size - removed;
}

template <class vid_t>
int64_t edit_row_in_place(vid_t* cols, int32_t* weights, int64_t size,
                          std::span<const row_op_t<vid_t>> ops, const int32_t* batch_weights,
                          int num_weights, bool sorted, row_piece_recorder_t<vid_t>* recorder) {
  using op_t = row_op_t<vid_t>;
  if (sorted && ops.size() > 1 &&
      std::none_of(ops.begin(), ops.end(),
                   [](const op_t& op) { return op.kind == op_kind_t::insert; }) &&
      std::is_sorted(ops.begin(), ops.end(),
                     [](const op_t& a, const op_t& b) { return a.col < b.col; })) {
    return compact_row_in_place(cols, weights, size, ops, batch_weights, num_weights, recorder);
  }
  return edit_row_one_at_a_time(cols, weights, size, ops, batch_weights, num_weights, sorted,
                                recorder);
}

template <class vid_t>
int64_t edit_row_one_at_a_time(vid_t* cols, int32_t* weights, int64_t size,
                               std::span<const row_op_t<vid_t>> ops, const int32_t* batch_weights,
                               int num_weights, bool sorted,
                               row_piece_recorder_t<vid_t>* recorder) {
  const int64_t k = num_weights;
  auto shift = [&](int64_t from, int64_t to) {  // moves slots [from, size) to start at `to`
    const auto count = static_cast<size_t>(size - from);
    std::memmove(cols + to, cols + from, sizeof(vid_t) * count);
    if (k > 0) std::memmove(weights + to * k, weights + from * k, sizeof(int32_t) * count * k);
  };
  for (const auto& op : ops) {
    if (op.kind == op_kind_t::insert) {
      const int64_t pos = sorted ? std::upper_bound(cols, cols + size, op.col) - cols : size;
      shift(pos, pos + 1);
      cols[pos] = op.col;
      const int32_t* w = op_weights(op, batch_weights, k);
      if (k > 0) std::memcpy(weights + pos * k, w, sizeof(int32_t) * k);
      if (recorder != nullptr) recorder->insert(pos, op.col, w);
      ++size;
      continue;
    }
    // The batch resolution guarantees a remaining copy of op.col here.
    const int64_t pos = sorted ? std::lower_bound(cols, cols + size, op.col) - cols
                               : std::find(cols, cols + size, op.col) - cols;
    if (op.kind == op_kind_t::reweight) {
      const int32_t* w = op_weights(op, batch_weights, k);
      if (k > 0) std::memcpy(weights + pos * k, w, sizeof(int32_t) * k);
      if (recorder != nullptr) recorder->reweight(pos, cols[pos], w);
      continue;
    }
    if (recorder != nullptr) recorder->erase(pos);
    shift(pos + 1, pos);
    --size;
  }
  return size;
}

}  // namespace dyng::detail
