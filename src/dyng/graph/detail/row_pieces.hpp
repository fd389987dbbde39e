// Records an in-place row edit as pieces (runs of old slots and literal slots) while
// edit_row_in_place performs it, for row_edits_t (change_log.hpp).
//
// The piece list starts as one run covering the old row; each operation splits the run it lands
// in. A row takes at most k_edit_in_place_max_ops operations, so the list stays short and the
// linear walks below cost nothing next to the memmoves of the edit itself.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dyng/graph/change_log.hpp"

namespace dyng::detail {

template <class vid_t>
class row_piece_recorder_t {
 public:
  using piece_t = typename row_edits_t<vid_t>::piece_t;

  row_piece_recorder_t(row_edits_t<vid_t>& edits, int num_weights)
      : edits_(edits), k_(num_weights) {}

  void begin_row(int64_t size) {
    pieces_.clear();
    if (size > 0) pieces_.push_back({size, 0, 0});
  }

  /// A new slot at `pos`; the slots from `pos` on move one to the right.
  void insert(int64_t pos, vid_t col, const int32_t* weights) {
    const piece_t literal{1, add_literal(col, weights), 0};
    int64_t start = 0;
    for (size_t i = 0; i < pieces_.size(); ++i) {
      const int64_t length = pieces_[i].length;
      if (pos < start + length) {
        const int64_t offset = pos - start;
        if (offset == 0) {
          pieces_.insert(pieces_.begin() + static_cast<std::ptrdiff_t>(i), literal);
        } else {  // only an old run can be split (literal runs have length 1)
          const piece_t right{length - offset, pieces_[i].source + offset, 0};
          pieces_[i].length = offset;
          pieces_.insert(pieces_.begin() + static_cast<std::ptrdiff_t>(i) + 1, {literal, right});
        }
        return;
      }
      start += length;
    }
    pieces_.push_back(literal);  // at the end of the row
  }

  /// The slot at `pos` disappears; the slots behind it move one to the left.
  void erase(int64_t pos) {
    const auto [i, offset] = locate(pos);
    piece_t& p = pieces_[i];
    if (p.length == 1) {
      pieces_.erase(pieces_.begin() + static_cast<std::ptrdiff_t>(i));
    } else if (offset == 0) {
      ++p.source;
      --p.length;
    } else if (offset == p.length - 1) {
      --p.length;
    } else {
      const piece_t right{p.length - offset - 1, p.source + offset + 1, 0};
      p.length = offset;
      pieces_.insert(pieces_.begin() + static_cast<std::ptrdiff_t>(i) + 1, right);
    }
  }

  /// The slot at `pos` (column `col`) gets new weights.
  void reweight(int64_t pos, vid_t col, const int32_t* weights) {
    const auto [i, offset] = locate(pos);
    piece_t& p = pieces_[i];
    if (p.source < 0) {  // already a literal: overwrite its weights
      const auto at = static_cast<size_t>(-(p.source + 1)) * static_cast<size_t>(k_);
      for (int k = 0; k < k_; ++k) edits_.literal_weights[at + k] = weights[k];
      return;
    }
    const piece_t literal{1, add_literal(col, weights), 0};
    const piece_t right{p.length - offset - 1, p.source + offset + 1, 0};
    p.length = offset;
    auto at = pieces_.begin() + static_cast<std::ptrdiff_t>(i) + 1;
    at = pieces_.insert(at, literal) + 1;
    if (right.length > 0) pieces_.insert(at, right);
    if (pieces_[i].length == 0) pieces_.erase(pieces_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  /// Stores the row's pieces with their destinations.
  void end_row(vid_t row, int64_t new_size) {
    int64_t dest = 0;
    for (piece_t p : pieces_) {
      p.dest = dest;
      dest += p.length;
      edits_.pieces.push_back(p);
    }
    edits_.rows.push_back(row);
    edits_.new_size.push_back(new_size);
    edits_.piece_begin.push_back(static_cast<int64_t>(edits_.pieces.size()));
  }

 private:
  std::pair<size_t, int64_t> locate(int64_t pos) const {
    int64_t start = 0;
    for (size_t i = 0; i < pieces_.size(); ++i) {
      if (pos < start + pieces_[i].length) return {i, pos - start};
      start += pieces_[i].length;
    }
    return {pieces_.size() - 1, pieces_.back().length - 1};  // unreachable for valid positions
  }

  int64_t add_literal(vid_t col, const int32_t* weights) {
    const auto index = static_cast<int64_t>(edits_.literal_cols.size());
    edits_.literal_cols.push_back(col);
    for (int k = 0; k < k_; ++k) edits_.literal_weights.push_back(weights[k]);
    return -(index + 1);
  }

  row_edits_t<vid_t>& edits_;
  int k_;
  std::vector<piece_t> pieces_;
};

/// The row edits of a batch written in runs of rows, one record per run in row order, joined
/// into `into` (literal indices renumbered), each run copied by its own thread of `team`.
template <class vid_t>
void join_row_edits(row_edits_t<vid_t>& into, const std::vector<row_edits_t<vid_t>>& parts,
                    int team) {
  struct offsets_t {
    size_t rows = 0, pieces = 0, literals = 0, weights = 0, rewritten = 0;
  };
  std::vector<offsets_t> at(parts.size() + 1);
  for (size_t p = 0; p < parts.size(); ++p) {
    at[p + 1].rows = at[p].rows + parts[p].rows.size();
    at[p + 1].pieces = at[p].pieces + parts[p].pieces.size();
    at[p + 1].literals = at[p].literals + parts[p].literal_cols.size();
    at[p + 1].weights = at[p].weights + parts[p].literal_weights.size();
    at[p + 1].rewritten = at[p].rewritten + parts[p].rewritten.size();
  }
  const offsets_t& total = at.back();
  into.clear();
  into.recorded = true;
  into.rows.resize(total.rows);
  into.new_size.resize(total.rows);
  into.piece_begin.resize(total.rows + 1);
  into.pieces.resize(total.pieces);
  into.literal_cols.resize(total.literals);
  into.literal_weights.resize(total.weights);
  into.rewritten.resize(total.rewritten);
  const int64_t count = static_cast<int64_t>(parts.size());
#pragma omp parallel for num_threads(team) schedule(static, 1) if (team > 1)
  for (int64_t p = 0; p < count; ++p) {
    const row_edits_t<vid_t>& part = parts[p];
    const offsets_t& o = at[p];
    std::copy(part.rows.begin(), part.rows.end(), into.rows.begin() + o.rows);
    std::copy(part.new_size.begin(), part.new_size.end(), into.new_size.begin() + o.rows);
    for (size_t r = 1; r < part.piece_begin.size(); ++r) {
      into.piece_begin[o.rows + r] = static_cast<int64_t>(o.pieces) + part.piece_begin[r];
    }
    for (size_t i = 0; i < part.pieces.size(); ++i) {
      auto piece = part.pieces[i];
      // A literal's source is -(index + 1): shift the index past the earlier runs' literals.
      if (piece.source < 0) piece.source -= static_cast<int64_t>(o.literals);
      into.pieces[o.pieces + i] = piece;
    }
    std::copy(part.literal_cols.begin(), part.literal_cols.end(),
              into.literal_cols.begin() + o.literals);
    std::copy(part.literal_weights.begin(), part.literal_weights.end(),
              into.literal_weights.begin() + o.weights);
    std::copy(part.rewritten.begin(), part.rewritten.end(), into.rewritten.begin() + o.rewritten);
  }
}

}  // namespace dyng::detail
