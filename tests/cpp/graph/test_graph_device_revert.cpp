// device_graph_t::revert() after an apply() that kept an undo record must give back the device
// graph exactly as it was: download() equal slot for slot (offsets, capacities, tails, re-layout
// count, version) to the download before the apply, on random graphs and batches over every
// storage and semantics setting, with batches that edit rows in place, move them to the tail,
// re-lay a direction out and grow the vertex set. The same batch then applies again to the same
// slots. An apply stopped by the calling thread's flag changes nothing.
#include <atomic>
#include <cstdint>
#include <random>
#include <vector>

#include "check.hpp"
#include "dyng/backend/execution.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "gpu_test_util.hpp"
#include "graph/graph_test_util.hpp"

namespace {

using namespace dyng;
using graph_test::random_batch;
using graph_test::random_edges;
using graph_test::random_props;
using graph_test::same_graph;

template <class vid_t, class eid_t>
void device_reverts_restore_the_graph(uint64_t seed, int trials) {
  std::mt19937_64 rng(seed);
  int reverted = 0, relaid = 0, grown = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const graph_properties_t p = random_props(rng);
    const int k = p.num_weights;
    const vid_t n = static_cast<vid_t>(20 + rng() % 300);
    const int64_t m = static_cast<int64_t>(n) * static_cast<int64_t>(1 + rng() % 10);
    const auto edges = random_edges(rng, p, n, m);
    const auto host = graph_t<vid_t, eid_t>::from_edges(n, edges.src, edges.dst, edges.w, p);
    cuda::device_graph_t<vid_t, eid_t> device(host, 0, nullptr);
    for (int step = 0; step < 6; ++step) {
      const int64_t size = step == 5 ? static_cast<int64_t>(device.num_edges()) + 20
                                     : 1 + static_cast<int64_t>(rng() % (step < 3 ? 40 : 2000));
      const vid_t limit = p.semantics.allow_vertex_growth && rng() % 2
                              ? static_cast<vid_t>(device.num_vertices() + 4)
                              : device.num_vertices();
      const auto drawn = random_batch(rng, edges, k, size, limit, device.num_vertices());
      const edge_batch_t<vid_t> batch = drawn.batch();
      const auto before = device.download();
      typename cuda::device_graph_t<vid_t, eid_t>::undo_t undo;
      try {
        device.apply(batch, nullptr, &undo);
      } catch (const invalid_argument_error&) {
        CHECK(same_graph(device.download(), before));
        continue;
      }
      const auto applied = device.download();
      relaid += applied.relayout_count() != before.relayout_count() ? 1 : 0;
      grown += applied.num_vertices() != before.num_vertices() ? 1 : 0;
      device.revert(undo);
      ++reverted;
      const auto taken_back = device.download();
      CHECK(same_graph(taken_back, before));
      CHECK(taken_back.out_storage().tail == before.out_storage().tail);
      CHECK(taken_back.in_storage().tail == before.in_storage().tail);
      taken_back.check_integrity();
      CHECK_THROWS_AS(device.revert(undo), invalid_argument_error);
      device.apply(batch, nullptr);
      CHECK(same_graph(device.download(), applied));
    }
  }
  CHECK(reverted > 0);
  CHECK(relaid > 0);
  CHECK(grown > 0);
}

DYNG_TEST("device revert puts back every slot of an apply, i32/i32") {
  device_reverts_restore_the_graph<int32_t, int32_t>(21, 40);
}
DYNG_TEST("device revert puts back every slot of an apply, i64/i64") {
  device_reverts_restore_the_graph<int64_t, int64_t>(22, 20);
}

DYNG_TEST(
    "a device apply stopped by the thread's flag throws interrupted_error, changing nothing") {
  auto host = graph_test::make(4, {{0, 1, {3}}, {1, 2, {4}}}, graph_test::props());
  cuda::device_graph_t<int32_t, int32_t> device(host, 0, nullptr);
  const auto before = device.download();
  graph_test::batch_t<> b;
  b.ins(2, 3, {5}).del(0, 1);
  std::atomic<bool> stop{true};
  {
    const cancel_scope_t scope(cancel_token_t{&stop});
    CHECK_THROWS_AS(device.apply(b.view(), nullptr), interrupted_error);
  }
  CHECK(same_graph(device.download(), before));
  device.apply(b.view(), nullptr);
  CHECK_EQ(device.version(), before.version() + 1);
}

}  // namespace

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
