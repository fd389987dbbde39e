// The row copies of apply_undo_t (graph/apply_undo.hpp): taken by Graph.apply() before it writes a
// direction, put back by graph_t::revert().
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "dyng/graph/apply_undo.hpp"
#include "dyng/graph/detail/compose.hpp"
#include "dyng/graph/detail/slots.hpp"

namespace dyng::detail {

/// Copies the offsets and slots of every row that `ops` (grouped by row, rows ascending) touches
/// in `d`, as they are now, into `record`; with `team` > 1 the slots are copied on the team.
template <class D, class vid_t, class record_t>
void record_touched_rows(const D& d, std::span<const row_op_t<vid_t>> ops, int num_weights,
                         int team, record_t& record) {
  const int64_t k = num_weights;
  record.rows.clear();
  for (size_t j = 0; j < ops.size(); ++j) {
    if (j == 0 || ops[j].row != ops[j - 1].row) record.rows.push_back(ops[j].row);
  }
  const auto count = static_cast<int64_t>(record.rows.size());
  record.begin.resize(static_cast<size_t>(count));
  record.end.resize(static_cast<size_t>(count));
  record.capacity_end.resize(static_cast<size_t>(count));
  record.at.assign(static_cast<size_t>(count) + 1, 0);
  for (int64_t i = 0; i < count; ++i) {
    const auto v = static_cast<size_t>(record.rows[static_cast<size_t>(i)]);
    record.begin[i] = d.row_begin[v];
    record.end[i] = d.row_end[v];
    record.capacity_end[i] = d.row_capacity_end[v];
    record.at[i + 1] =
        record.at[i] + (static_cast<int64_t>(d.row_end[v]) - static_cast<int64_t>(d.row_begin[v]));
  }
  record.cols.resize(static_cast<size_t>(record.at[count]));
  record.weights.resize(static_cast<size_t>(record.at[count] * k));
#pragma omp parallel for num_threads(team) schedule(dynamic, 64) if (team > 1)
  for (int64_t i = 0; i < count; ++i) {
    const int64_t b = record.begin[i], size = record.at[i + 1] - record.at[i];
    if (size == 0) continue;
    std::memcpy(record.cols.data() + record.at[i], d.col.data() + b,
                sizeof(vid_t) * static_cast<size_t>(size));
    if (k > 0) {
      std::memcpy(record.weights.data() + record.at[i] * k, d.weights.data() + b * k,
                  sizeof(int32_t) * static_cast<size_t>(size * k));
    }
  }
}

/// Puts a direction back as `record` saw it before the apply: the whole direction kept before a
/// re-layout first, then every touched row into its old range (which no other row took: rows
/// move only to the free tail, past the old one), then the old tail and row count.
template <class D, class record_t>
void restore_direction(D& d, record_t& record, int num_weights, int64_t rows_before) {
  const int64_t k = num_weights;
  if (record.whole) {
    d = std::move(*record.whole);
    record.whole.reset();
  }
  const auto count = static_cast<int64_t>(record.rows.size());
  for (int64_t i = 0; i < count; ++i) {
    const auto v = static_cast<size_t>(record.rows[static_cast<size_t>(i)]);
    const int64_t b = record.begin[i], size = record.at[i + 1] - record.at[i];
    d.row_begin[v] = record.begin[i];
    d.row_end[v] = record.end[i];
    d.row_capacity_end[v] = record.capacity_end[i];
    if (size == 0) continue;
    std::memcpy(d.col.data() + b, record.cols.data() + record.at[i],
                sizeof(d.col[0]) * static_cast<size_t>(size));
    if (k > 0) {
      std::memcpy(d.weights.data() + b * k, record.weights.data() + record.at[i] * k,
                  sizeof(int32_t) * static_cast<size_t>(size * k));
    }
  }
  d.tail = record.tail;
  // The rows the batch added go; their offsets are zeroed as a smaller zeroed_array keeps them.
  d.row_begin.resize(static_cast<size_t>(rows_before));
  d.row_end.resize(static_cast<size_t>(rows_before));
  d.row_capacity_end.resize(static_cast<size_t>(rows_before));
}

}  // namespace dyng::detail
