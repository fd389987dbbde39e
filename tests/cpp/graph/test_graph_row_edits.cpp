// The slot-level record of apply() (change_log_t::out_edits / in_edits): replaying it on a
// snapshot of the old storage must give exactly the new storage, for every row, on directed and
// undirected graphs, sorted and append order, with and without parallel edges. Device copies of
// graphs rely on this replay (cuda::device_graph_t::sync), so it is checked here without a GPU.
// The one-pass compaction of a sorted row's erases and reweights gives the slots and pieces of
// the one-at-a-time edit.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "check.hpp"
#include "dyng/graph/detail/compose.hpp"
#include "dyng/graph/detail/row_pieces.hpp"
#include "dyng/graph/graph.hpp"
#include "graph_test_util.hpp"

namespace {

template <class vid_t, class eid_t>
struct snapshot_t {
  std::vector<eid_t> begin, end;
  std::vector<vid_t> col;
  std::vector<int32_t> weights;
  int k = 0;

  snapshot_t(const dyng::adjacency_view_t<vid_t, eid_t>& v, int64_t slots)
      : begin(v.row_begin, v.row_begin + v.num_vertices),
        end(v.row_end, v.row_end + v.num_vertices),
        col(v.col, v.col + slots),
        weights(v.weights, v.weights + slots * v.num_weights),
        k(v.num_weights) {}
};

/// Replays `edits` on `old` (as device_graph_t::sync does) and compares with `now`. Returns the
/// number of rows that were replayed from pieces.
template <class vid_t, class eid_t>
int64_t replay_matches(const snapshot_t<vid_t, eid_t>& old,
                       const dyng::adjacency_view_t<vid_t, eid_t>& now, int64_t slots,
                       const dyng::row_edits_t<vid_t>& edits) {
  snapshot_t<vid_t, eid_t> copy = old;
  const int k = old.k;
  copy.col.resize(static_cast<size_t>(slots));
  copy.weights.resize(static_cast<size_t>(slots) * k);
  copy.begin.resize(static_cast<size_t>(now.num_vertices), 0);
  copy.end.resize(static_cast<size_t>(now.num_vertices), 0);
  for (vid_t v : edits.rewritten) {  // taken whole from the new storage
    copy.begin[v] = now.row_begin[v];
    copy.end[v] = now.row_end[v];
    for (eid_t s = now.row_begin[v]; s < now.row_end[v]; ++s) {
      copy.col[s] = now.col[s];
      for (int j = 0; j < k; ++j) copy.weights[s * k + j] = now.weights[s * k + j];
    }
  }
  for (size_t r = 0; r < edits.rows.size(); ++r) {
    const vid_t v = edits.rows[r];
    const eid_t b = old.begin[v];
    for (int64_t p = edits.piece_begin[r]; p < edits.piece_begin[r + 1]; ++p) {
      const auto& piece = edits.pieces[p];
      for (int64_t j = 0; j < piece.length; ++j) {
        const int64_t to = b + piece.dest + j;
        if (piece.source >= 0) {
          const int64_t from = b + piece.source + j;
          copy.col[to] = old.col[from];
          for (int w = 0; w < k; ++w) copy.weights[to * k + w] = old.weights[from * k + w];
        } else {
          const int64_t lit = -(piece.source + 1) + j;
          copy.col[to] = edits.literal_cols[lit];
          for (int w = 0; w < k; ++w) copy.weights[to * k + w] = edits.literal_weights[lit * k + w];
        }
      }
    }
    copy.end[v] = static_cast<eid_t>(b + edits.new_size[r]);
  }
  for (vid_t v = 0; v < now.num_vertices; ++v) {
    CHECK_EQ(copy.begin[v], now.row_begin[v]);
    CHECK_EQ(copy.end[v], now.row_end[v]);
    if (copy.begin[v] != now.row_begin[v] || copy.end[v] != now.row_end[v]) return -1;
    for (eid_t s = now.row_begin[v]; s < now.row_end[v]; ++s) {
      CHECK_EQ(copy.col[s], now.col[s]);
      for (int w = 0; w < k; ++w) CHECK_EQ(copy.weights[s * k + w], now.weights[s * k + w]);
    }
  }
  return static_cast<int64_t>(edits.rows.size());
}

template <class vid_t, class eid_t>
void check_replay(bool directed, bool sorted, bool parallel, uint32_t seed) {
  using graph_t = dyng::graph_t<vid_t, eid_t>;
  std::mt19937 rng(seed);
  const vid_t n = 60;
  std::vector<vid_t> src, dst;
  std::vector<int32_t> w;
  for (int e = 0; e < 400; ++e) {
    src.push_back(static_cast<vid_t>(rng() % n));
    dst.push_back(static_cast<vid_t>(rng() % (e % 5 == 0 ? 4 : n)));  // a few hub columns
    w.push_back(static_cast<int32_t>(1 + rng() % 9));
    w.push_back(static_cast<int32_t>(1 + rng() % 9));
  }
  dyng::graph_properties_t props;
  props.directed = directed;
  props.num_weights = 2;
  props.order = sorted ? dyng::edge_order_t::sorted : dyng::edge_order_t::append;
  props.allow_parallel_edges = parallel;
  graph_t g = graph_t::from_edges(n, src, dst, w, props);
  int64_t replayed = 0;
  for (int step = 0; step < 80; ++step) {
    const int size = step % 9 == 8 ? 120 : 1 + static_cast<int>(rng() % 10);
    const vid_t limit = step % 20 == 19 ? g.num_vertices() + 3 : g.num_vertices();
    std::vector<vid_t> is, id, ds, dd;
    std::vector<int32_t> iw;
    for (int i = 0; i < size; ++i) {
      is.push_back(static_cast<vid_t>(rng() % limit));
      id.push_back(static_cast<vid_t>(rng() % (i % 3 == 0 ? 4 : limit)));
      iw.push_back(static_cast<int32_t>(1 + rng() % 9));
      iw.push_back(static_cast<int32_t>(1 + rng() % 9));
      // Deletions aimed at edges that exist about half the time.
      const size_t e = rng() % src.size();
      ds.push_back(rng() % 2 ? src[e] : static_cast<vid_t>(rng() % g.num_vertices()));
      dd.push_back(rng() % 2 ? dst[e] : static_cast<vid_t>(rng() % g.num_vertices()));
    }
    const snapshot_t<vid_t, eid_t> old_out(g.out_view(), g.slot_capacity());
    const int64_t relayouts = g.relayout_count();
    const vid_t n_before = g.num_vertices();
    const bool has_in = directed;
    std::optional<snapshot_t<vid_t, eid_t>> old_in;
    if (has_in) old_in.emplace(g.in_view(), g.in_slot_capacity());
    const dyng::edge_batch_t<vid_t> batch{is, id, iw, 2, ds, dd};
    // Without record_row_edits a log carries the same changes and no edits.
    auto unrecorded = g;
    dyng::change_log_t<vid_t> plain_log;
    unrecorded.apply(batch, &plain_log);
    CHECK(!plain_log.out_edits.recorded && !plain_log.in_edits.recorded);
    dyng::change_log_t<vid_t> log;
    log.record_row_edits = true;
    g.apply(batch, &log);
    CHECK(graph_test::same_changes(log, plain_log));
    // A re-laid-out or grown graph is uploaded whole by a device copy: nothing to replay.
    if (g.relayout_count() != relayouts || g.num_vertices() != n_before) continue;
    CHECK(log.out_edits.recorded);
    const int64_t out_rows =
        replay_matches(old_out, g.out_view(), g.slot_capacity(), log.out_edits);
    CHECK(out_rows >= 0);
    replayed += out_rows;
    if (has_in) {
      CHECK(log.in_edits.recorded);
      CHECK(replay_matches(*old_in, g.in_view(), g.in_slot_capacity(), log.in_edits) >= 0);
    } else {
      CHECK(!log.in_edits.recorded);
    }
  }
  // The small batches must mostly have gone through the in-place path that records pieces.
  CHECK(replayed > 100);
}

}  // namespace

/// A sorted row of `size` slots over few columns (so with parallel copies), K weights each, and
/// erases and reweights of copies that remain, in (column, seq) order as apply() hands them over.
struct compaction_case_t {
  std::vector<int32_t> cols, weights, batch_weights;
  std::vector<dyng::detail::row_op_t<int32_t>> ops;
};

compaction_case_t compaction_case(std::mt19937& rng, int k) {
  compaction_case_t c;
  const int size = 1 + static_cast<int>(rng() % 60);
  const int columns = 1 + static_cast<int>(rng() % 20);
  for (int i = 0; i < size; ++i) c.cols.push_back(static_cast<int32_t>(rng() % columns));
  std::sort(c.cols.begin(), c.cols.end());
  for (int i = 0; i < size * k; ++i) c.weights.push_back(static_cast<int32_t>(1 + rng() % 50));
  std::vector<int> left(static_cast<size_t>(columns), 0);  // copies not yet erased
  for (const int32_t col : c.cols) ++left[static_cast<size_t>(col)];
  const int count = 2 + static_cast<int>(rng() % 12);
  int64_t seq = 0;
  for (int col = 0; col < columns; ++col) {
    for (int t = 0; t < count && left[static_cast<size_t>(col)] > 0; ++t) {
      if (rng() % static_cast<uint32_t>(columns) > 2) continue;
      const bool erase = rng() % 3 != 0;
      dyng::detail::row_op_t<int32_t> op{
          0,
          col,
          seq++,
          static_cast<int64_t>(c.ops.size()),
          erase ? dyng::detail::op_kind_t::erase : dyng::detail::op_kind_t::reweight,
          static_cast<int32_t>(100 + rng() % 50)};
      for (int w = 0; w < k; ++w) c.batch_weights.push_back(static_cast<int32_t>(200 + rng() % 50));
      c.ops.push_back(op);
      if (erase) --left[static_cast<size_t>(col)];
    }
  }
  return c;
}

DYNG_TEST("a sorted row's erases and reweights in one pass equal them one at a time") {
  std::mt19937 rng(17);
  int compacted = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int k = static_cast<int>(trial % 3);
    const compaction_case_t c = compaction_case(rng, k);
    if (c.ops.size() < 2) continue;
    ++compacted;
    using edits_t = dyng::row_edits_t<int32_t>;
    std::vector<int32_t> cols[2] = {c.cols, c.cols}, weights[2] = {c.weights, c.weights};
    edits_t edits[2];
    int64_t sizes[2];
    for (int way = 0; way < 2; ++way) {
      dyng::detail::row_piece_recorder_t<int32_t> recorder(edits[way], k);
      recorder.begin_row(static_cast<int64_t>(c.cols.size()));
      const std::span<const dyng::detail::row_op_t<int32_t>> ops(c.ops);
      int32_t* w = k > 0 ? weights[way].data() : nullptr;
      const auto size = static_cast<int64_t>(c.cols.size());
      sizes[way] =
          way == 0
              ? dyng::detail::compact_row_in_place(cols[way].data(), w, size, ops,
                                                   c.batch_weights.data(), k, &recorder)
              : dyng::detail::edit_row_one_at_a_time(cols[way].data(), w, size, ops,
                                                     c.batch_weights.data(), k, true, &recorder);
      recorder.end_row(0, sizes[way]);
    }
    CHECK_EQ(sizes[0], sizes[1]);
    cols[0].resize(static_cast<size_t>(sizes[0]));
    cols[1].resize(static_cast<size_t>(sizes[1]));
    weights[0].resize(static_cast<size_t>(sizes[0] * k));
    weights[1].resize(static_cast<size_t>(sizes[1] * k));
    CHECK(cols[0] == cols[1]);
    CHECK(weights[0] == weights[1]);
    CHECK(edits[0].new_size == edits[1].new_size);
    CHECK_EQ(edits[0].pieces.size(), edits[1].pieces.size());
    for (size_t p = 0; p < std::min(edits[0].pieces.size(), edits[1].pieces.size()); ++p) {
      CHECK_EQ(edits[0].pieces[p].length, edits[1].pieces[p].length);
      CHECK_EQ(edits[0].pieces[p].source, edits[1].pieces[p].source);
      CHECK_EQ(edits[0].pieces[p].dest, edits[1].pieces[p].dest);
    }
    CHECK(edits[0].literal_cols == edits[1].literal_cols);
    CHECK(edits[0].literal_weights == edits[1].literal_weights);
  }
  CHECK(compacted > 200);
}

DYNG_TEST("row edits replay exactly: directed, sorted, every id combination") {
  check_replay<int32_t, int32_t>(true, true, false, 1);
  check_replay<int32_t, int64_t>(true, true, false, 2);
  check_replay<int64_t, int64_t>(true, true, false, 3);
}

DYNG_TEST("row edits replay exactly: undirected, append order, parallel edges") {
  check_replay<int32_t, int32_t>(false, true, false, 4);
  check_replay<int32_t, int32_t>(true, false, true, 5);
  check_replay<int32_t, int32_t>(false, false, true, 6);
  check_replay<int32_t, int32_t>(true, true, true, 7);
}

DYNG_TEST_MAIN()
