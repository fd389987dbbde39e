// The slot-level record of apply() (change_log_t::out_edits / in_edits): replaying it on a
// snapshot of the old storage must give exactly the new storage, for every row, on directed and
// undirected graphs, sorted and append order, with and without parallel edges. Device copies of
// graphs rely on this replay (cuda::device_graph_t::sync), so it is checked here without a GPU.
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "check.hpp"
#include "dyng/graph/graph.hpp"

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
    dyng::change_log_t<vid_t> log;
    g.apply(dyng::edge_batch_t<vid_t>{is, id, iw, 2, ds, dd}, &log);
    // A re-laid-out or grown graph is uploaded whole by a device copy: nothing to replay.
    if (g.relayout_count() != relayouts || g.num_vertices() != n_before) continue;
    CHECK(log.out_edits.recorded);
    const int64_t out_rows = replay_matches(old_out, g.out_view(), g.slot_capacity(),
                                            log.out_edits);
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
