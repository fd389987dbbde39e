// device_graph_t: after every apply + sync, the device copy equals the host graph slot for slot
// (row ranges, columns, weights of every used slot); small batches touch only their rows and
// mostly rebuild them on the device from the recorded pieces; vertex growth, re-layouts and
// grown slot arrays fall back to whole uploads.
#include <cstdint>
#include <random>
#include <vector>

#include "check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "gpu_test_util.hpp"

namespace {

template <class vid_t, class eid_t>
std::vector<eid_t> fetch(const eid_t* d, size_t n) {
  std::vector<eid_t> host(n);
  dyng::cuda::copy_to_host(host.data(), d, n * sizeof(eid_t), nullptr);
  dyng::cuda::synchronize(nullptr);
  return host;
}

/// Every used slot of `device` equals `host` (spare slots may differ: nobody reads them).
template <class vid_t, class eid_t>
bool same_rows(const dyng::adjacency_view_t<vid_t, eid_t>& host,
               const dyng::adjacency_view_t<vid_t, eid_t>& device, int64_t slots) {
  const auto n = static_cast<size_t>(host.num_vertices);
  if (device.num_vertices != host.num_vertices || device.num_weights != host.num_weights) {
    return false;
  }
  const auto begin = fetch<vid_t, eid_t>(device.row_begin, n);
  const auto end = fetch<vid_t, eid_t>(device.row_end, n);
  std::vector<vid_t> col(static_cast<size_t>(slots));
  std::vector<int32_t> weights(static_cast<size_t>(slots) * host.num_weights);
  dyng::cuda::copy_to_host(col.data(), device.col, col.size() * sizeof(vid_t), nullptr);
  dyng::cuda::copy_to_host(weights.data(), device.weights, weights.size() * sizeof(int32_t),
                           nullptr);
  dyng::cuda::synchronize(nullptr);
  for (size_t v = 0; v < n; ++v) {
    if (begin[v] != host.row_begin[v] || end[v] != host.row_end[v]) return false;
    for (eid_t s = begin[v]; s < end[v]; ++s) {
      if (col[s] != host.col[s]) return false;
      for (int k = 0; k < host.num_weights; ++k) {
        if (weights[s * host.num_weights + k] != host.weights[s * host.num_weights + k]) {
          return false;
        }
      }
    }
  }
  return true;
}

template <class vid_t, class eid_t>
void check_mirror(bool directed, uint32_t seed) {
  using graph_t = dyng::graph_t<vid_t, eid_t>;
  std::mt19937 rng(seed);
  const vid_t n = 200;
  std::vector<vid_t> src, dst;
  std::vector<int32_t> w;
  for (int e = 0; e < 1500; ++e) {
    src.push_back(static_cast<vid_t>(rng() % n));
    dst.push_back(static_cast<vid_t>(rng() % n));
    w.push_back(static_cast<int32_t>(1 + rng() % 50));
    w.push_back(static_cast<int32_t>(1 + rng() % 50));
  }
  dyng::graph_properties_t props;
  props.directed = directed;
  props.num_weights = 2;
  graph_t g = graph_t::from_edges(n, src, dst, w, props);
  dyng::cuda::device_graph_t<vid_t, eid_t> d(g, 0, nullptr);
  CHECK(same_rows(g.out_view(), d.out_view(), g.slot_capacity()));
  CHECK(same_rows(g.in_view(), d.in_view(), g.in_slot_capacity()));
  int64_t incremental = 0;
  int64_t replayed_only = 0;
  for (int step = 0; step < 60; ++step) {
    // Mostly small batches; every 15th grows the vertex set, some are large enough to move rows.
    const int size = step % 7 == 6 ? 400 : 1 + static_cast<int>(rng() % 12);
    const vid_t limit = step % 15 == 14 ? g.num_vertices() + 5 : g.num_vertices();
    std::vector<vid_t> is, id, ds, dd;
    std::vector<int32_t> iw;
    for (int i = 0; i < size; ++i) {
      is.push_back(static_cast<vid_t>(rng() % limit));
      id.push_back(static_cast<vid_t>(rng() % limit));
      iw.push_back(static_cast<int32_t>(1 + rng() % 50));
      iw.push_back(static_cast<int32_t>(1 + rng() % 50));
      ds.push_back(static_cast<vid_t>(rng() % g.num_vertices()));
      dd.push_back(static_cast<vid_t>(rng() % g.num_vertices()));
    }
    const int64_t uploads = d.full_uploads();
    const int64_t relayouts = g.relayout_count();
    const vid_t before = g.num_vertices();
    dyng::change_log_t<vid_t> log;
    // Every sixth log carries no row edits: the sync then copies the rows the changes name.
    const bool recorded = step % 6 != 5;
    log.record_row_edits = recorded;
    g.apply(dyng::edge_batch_t<vid_t>{is, id, iw, 2, ds, dd}, &log);
    d.sync(g, log);
    CHECK_EQ(d.version(), g.version());
    CHECK(same_rows(g.out_view(), d.out_view(), g.slot_capacity()));
    CHECK(same_rows(g.in_view(), d.in_view(), g.in_slot_capacity()));
    if (g.num_vertices() == before && g.relayout_count() == relayouts &&
        d.full_uploads() == uploads) {
      ++incremental;
      CHECK(d.rows_synced() <= 4 * size);
      CHECK(d.rows_uploaded() <= d.rows_synced());
      if (!recorded) CHECK_EQ(d.rows_uploaded(), d.rows_synced());
      if (d.rows_uploaded() == 0 && d.rows_synced() > 0) ++replayed_only;
    }
  }
  // Most batches are small: they must have been synced row by row.
  CHECK(incremental >= 30);
  // ... and most of those without copying a row from the host (replayed from pieces).
  CHECK(replayed_only >= 10);
  // A sync that skips an apply is refused rather than silently wrong.
  dyng::change_log_t<vid_t> log;
  g.apply(dyng::edge_batch_t<vid_t>{{}, {}, {}, 2, {}, {}}, &log);
  g.apply(dyng::edge_batch_t<vid_t>{{}, {}, {}, 2, {}, {}}, &log);
  auto stale_sync = [&] { d.sync(g, log); };
  CHECK_THROWS_AS(stale_sync(), dyng::invalid_argument_error);
}

}  // namespace

DYNG_TEST("device copy follows directed graphs, all id types") {
  check_mirror<int32_t, int32_t>(true, 1);
  check_mirror<int32_t, int64_t>(true, 2);
  check_mirror<int64_t, int64_t>(true, 3);
}

DYNG_TEST("device copy follows undirected graphs (one stored direction)") {
  check_mirror<int32_t, int32_t>(false, 4);
}

DYNG_TEST("an invisible device is refused with a clear error") {
  dyng::graph_properties_t props;
  auto g = dyng::graph_t<int32_t, int32_t>::from_edges(
      2, std::vector<int32_t>{0}, std::vector<int32_t>{1}, std::vector<int32_t>{1}, props);
  CHECK_THROWS_AS((dyng::cuda::device_graph_t<int32_t, int32_t>(g, 4096, nullptr)),
                  dyng::invalid_argument_error);
}

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
