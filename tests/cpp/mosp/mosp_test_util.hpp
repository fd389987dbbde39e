// What the host and GPU mosp suites share: the combined graph and the path costs from their
// definitions, a bit-for-bit comparison of two host states, and the random adversarial batch.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "check.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/mosp/mosp.hpp"
#include "random_graph_case.hpp"

namespace dyng_test {

using namespace dyng;

/// The combined edges straight from the definition: (u, v) -> L*(K+1) - sum L/pref_i.
template <class vid_t>
std::map<std::pair<int64_t, int64_t>, int64_t> expected_combined(
    const mosp::state_t<vid_t>& s, const std::vector<int64_t>& prefs) {
  const int k = s.num_objectives;
  const int64_t scale = s.preference_scale;
  std::map<std::pair<int64_t, int64_t>, int64_t> edges;
  for (int i = 0; i < k; ++i) {
    const int64_t take = prefs.empty() ? scale : scale / prefs[i];
    for (size_t v = 0; v < s.trees[i].parents.size(); ++v) {
      const int64_t u = s.trees[i].parents[v];
      if (u < 0) continue;
      auto [it, fresh] = edges.try_emplace({u, static_cast<int64_t>(v)}, scale * (k + 1));
      it->second -= take;
    }
  }
  return edges;
}

/// Path costs by walking every vertex up its MOSP path, the weights of the first (p, v) slot.
template <class vid_t, class eid_t>
std::vector<int64_t> expected_costs(const graph_t<vid_t, eid_t>& g, const mosp::state_t<vid_t>& s) {
  const int k = s.num_objectives;
  const auto out = g.out_view();
  const int64_t n = g.num_vertices();
  std::vector<int64_t> costs(static_cast<size_t>(n * k), sssp::k_infinite_distance);
  for (int64_t v = 0; v < n; ++v) {
    if (v != s.source && s.combined_parents[v] < 0) continue;
    std::vector<int64_t> sum(static_cast<size_t>(k), 0);
    for (int64_t x = v; x != s.source; x = s.combined_parents[x]) {
      const vid_t p = s.combined_parents[x];
      eid_t slot = out.begin(p);
      while (out.neighbour(slot) != x) ++slot;
      for (int i = 0; i < k; ++i) sum[i] += out.weight(slot, i);
    }
    for (int i = 0; i < k; ++i) costs[v * k + i] = sum[i];
  }
  return costs;
}

/// A state's combined graph as (tail, head, weight) out-edges in row order, read through the
/// store's view, so it works whether or not an update has laid the graph out yet.
template <class vid_t>
std::vector<std::tuple<int64_t, int64_t, int64_t>> combined_edges(const mosp::state_t<vid_t>& s) {
  std::vector<std::tuple<int64_t, int64_t, int64_t>> edges;
  const auto out = s.combined_graph.out_view();
  for (vid_t u = 0; u < out.num_vertices; ++u) {
    for (int64_t j = out.begin(u); j < out.end(u); ++j) {
      edges.emplace_back(u, out.neighbour(j), out.weight(j, 0));
    }
  }
  return edges;
}

template <class vid_t>
void check_same(const mosp::state_t<vid_t>& a, const mosp::state_t<vid_t>& b) {
  CHECK_EQ(a.trees.size(), b.trees.size());
  for (size_t i = 0; i < a.trees.size() && i < b.trees.size(); ++i) {
    CHECK(a.trees[i].distances == b.trees[i].distances);
    CHECK(a.trees[i].parents == b.trees[i].parents);
  }
  CHECK(a.combined_distances == b.combined_distances);
  CHECK(a.combined_parents == b.combined_parents);
  CHECK(a.path_costs == b.path_costs);
  CHECK(combined_edges(a) == combined_edges(b));
}

template <class vid_t, class eid_t>
void check_definitions(const graph_t<vid_t, eid_t>& g, const mosp::state_t<vid_t>& s,
                       const std::vector<int64_t>& prefs) {
  std::map<std::pair<int64_t, int64_t>, int64_t> got;
  for (const auto& [u, v, w] : combined_edges(s)) got[{u, v}] = w;
  CHECK(got == expected_combined(s, prefs));
  CHECK(s.path_costs == expected_costs(g, s));
}

/// A batch of insertions (new edges, parallel copies, reweights, new vertices), deletions of
/// stored edges (tree edges among them) and deletions of missing edges.
template <class vid_t, class eid_t>
void random_batch(std::mt19937_64& rng, const graph_t<vid_t, eid_t>& g,
                  dyng_test::random_graph_case_t<vid_t>& rc, std::vector<vid_t>& is,
                  std::vector<vid_t>& id, std::vector<int32_t>& iw, std::vector<vid_t>& ds,
                  std::vector<vid_t>& dd) {
  std::vector<vid_t> src, dst;
  std::vector<int32_t> w;
  g.edges(src, dst, w);
  const uint64_t n = static_cast<uint64_t>(g.num_vertices());
  const int k = g.num_weights();
  const int inserts = static_cast<int>(rng() % 6), deletes = static_cast<int>(rng() % 6);
  for (int i = 0; i < inserts; ++i) {
    const bool reuse = !src.empty() && rng() % 3 == 0;  // an existing pair: upsert or parallel
    const size_t e = reuse ? rng() % src.size() : 0;
    is.push_back(reuse ? src[e] : static_cast<vid_t>(rng() % (n + 2)));
    id.push_back(reuse ? dst[e] : static_cast<vid_t>(rng() % (n + 2)));
    for (int j = 0; j < k; ++j) iw.push_back(rc.weight(rng));
  }
  for (int i = 0; i < deletes; ++i) {
    if (!src.empty() && rng() % 4 != 0) {
      const size_t e = rng() % src.size();
      ds.push_back(src[e]);
      dd.push_back(dst[e]);
    } else {
      ds.push_back(static_cast<vid_t>(rng() % n));
      dd.push_back(static_cast<vid_t>(rng() % n));
    }
  }
}

}  // namespace dyng_test
