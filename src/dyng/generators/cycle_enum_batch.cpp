// CycleEnumeration-GPU's batch generator (src/dynamic/batch_generator.cpp, generate_batch): a
// seeded set of edge deletions and insertions for cycle-count benchmarks.
//
// The draws, in the tool's order, from one std::mt19937_64 seeded with `seed`:
//   1. with a locality window smaller than n: the window's first id, uniform in [0, n - window];
//   2. the deletions: one shuffle (libstdc++'s std::shuffle, core/stdlib_random.hpp) of the
//      existing edges inside the window (CSR order; rows must be sorted without repeats, as in
//      the tool's graph), of which the first num_deletions are taken;
//   3. the insertions: two endpoint draws per attempt inside the window; self-loops, existing
//      edges and pairs already chosen are discarded, up to an attempt cap.
// Both lists are then sorted.
#include <algorithm>
#include <optional>
#include <utility>
#include <random>
#include <string>
#include <unordered_set>

#include "dyng/core/stdlib_random.hpp"
#include "dyng/generators/legacy.hpp"

namespace dyng::generators {
namespace {

constexpr const char* k_fn = "cycle_enum_batch()";
using tool_vertex_t = uint32_t;  // the tool's VertexId

struct change_t {
  tool_vertex_t src;
  tool_vertex_t dst;
  friend bool operator==(const change_t&, const change_t&) = default;
  friend auto operator<=>(const change_t&, const change_t&) = default;
};

uint64_t edge_key(tool_vertex_t u, tool_vertex_t v) {
  return (static_cast<uint64_t>(u) << 32) | static_cast<uint64_t>(v);
}

template <class vid_t>
void emit(std::vector<change_t> changes, std::vector<vid_t>& src, std::vector<vid_t>& dst) {
  std::sort(changes.begin(), changes.end());
  changes.erase(std::unique(changes.begin(), changes.end()), changes.end());
  for (const change_t& c : changes) {
    src.push_back(static_cast<vid_t>(c.src));
    dst.push_back(static_cast<vid_t>(c.dst));
  }
}

/// Throws unless the graph's rows are sorted without repeats, as the tool's graph view is: the
/// shuffle's input order and the candidate count depend on it, so other graphs are refused as
/// 0.2.0 does. Sorted rows also answer "is (u, v) an edge?" by binary search, without a hash set
/// of every edge.
template <class vid_t, class eid_t>
void check_sorted_simple_rows(const adjacency_view_t<vid_t, eid_t>& view, size_t n) {
  for (size_t u = 0; u < n; ++u) {
    const auto su = static_cast<vid_t>(u);
    for (eid_t e = view.begin(su) + 1; e < view.end(su); ++e) {
      if (view.neighbour(e - 1) >= view.neighbour(e)) {
        throw invalid_argument_error(
            std::string(k_fn) + ": row " + std::to_string(u) + " lists neighbour " +
            std::to_string(view.neighbour(e)) + " after " + std::to_string(view.neighbour(e - 1)) +
            " (unsorted or a parallel edge); build the graph with row_order='sorted' and "
            "multi_edges='forbid' (properties='default' or 'cycle_enum_compatible')");
      }
    }
  }
}

/// Draw 1: the ids [lo, hi) the changes stay in, the whole graph unless a locality window
/// smaller than n is asked for.
inline std::pair<size_t, size_t> draw_window(std::mt19937_64& rng, size_t n,
                                             const std::optional<int64_t>& locality_window) {
  if (!locality_window.has_value() || *locality_window < 0 ||
      static_cast<size_t>(*locality_window) >= n) {
    return {0, n};
  }
  const size_t window = std::max<size_t>(static_cast<size_t>(*locality_window), 2);
  if (window >= n) return {0, n};
  const size_t lo = stdlib_random::uniform_int<size_t>(rng, 0, n - window);
  return {lo, lo + window};
}

/// Draw 2: `count` stored edges with both ends in [lo, hi), by one shuffle of those edges in CSR
/// order.
template <class vid_t, class eid_t>
std::vector<change_t> draw_deletions(const adjacency_view_t<vid_t, eid_t>& view, size_t lo,
                                     size_t hi, int64_t count, std::mt19937_64& rng) {
  std::vector<change_t> pool;  // the stored edges inside the window, in CSR order
  for (size_t u = lo; u < hi; ++u) {
    const auto su = static_cast<vid_t>(u);
    for (eid_t e = view.begin(su); e < view.end(su); ++e) {
      const auto v = static_cast<tool_vertex_t>(view.neighbour(e));
      if (v >= lo && v < hi) pool.push_back({static_cast<tool_vertex_t>(u), v});
    }
  }
  if (pool.size() < static_cast<size_t>(count)) {
    throw invalid_argument_error(
        std::string(k_fn) + ": num_deletions=" + std::to_string(count) + " but only " +
        std::to_string(pool.size()) + " stored edges lie in ids [" + std::to_string(lo) + ", " +
        std::to_string(hi) + "); ask for fewer deletions or a wider locality_window");
  }
  stdlib_random::shuffle(pool.begin(), pool.end(), rng);
  pool.resize(static_cast<size_t>(count));
  return pool;
}

/// Draw 3: `wanted` distinct non-edges inside [lo, hi), two endpoint draws per attempt,
/// self-loops, edges and repeats discarded, up to an attempt cap.
template <class vid_t, class eid_t>
std::vector<change_t> draw_insertions(const adjacency_view_t<vid_t, eid_t>& view, size_t lo,
                                      size_t hi, size_t wanted, std::mt19937_64& rng) {
  auto is_edge = [&](tool_vertex_t u, tool_vertex_t v) {
    const auto su = static_cast<vid_t>(u);
    return std::binary_search(view.col + view.begin(su), view.col + view.end(su),
                              static_cast<vid_t>(v));
  };
  std::unordered_set<uint64_t> chosen;
  std::vector<change_t> picked;
  const size_t attempt_cap = 1000ull * (wanted + 1) + 100ull * (hi - lo);
  size_t attempts = 0;
  while (picked.size() < wanted) {
    if (++attempts > attempt_cap) {
      throw invalid_argument_error(std::string(k_fn) + ": found only " +
                                   std::to_string(picked.size()) +
                                   " of num_insertions=" + std::to_string(wanted) +
                                   " non-edges in ids [" + std::to_string(lo) + ", " +
                                   std::to_string(hi) + ") after " + std::to_string(attempt_cap) +
                                   " draws; ask for fewer insertions or a wider locality_window");
    }
    const auto u = static_cast<tool_vertex_t>(stdlib_random::uniform_int<size_t>(rng, lo, hi - 1));
    const auto v = static_cast<tool_vertex_t>(stdlib_random::uniform_int<size_t>(rng, lo, hi - 1));
    if (u == v) continue;
    const uint64_t key = edge_key(u, v);  // only for `chosen`: the tool's key
    if (is_edge(u, v) || !chosen.insert(key).second) continue;
    picked.push_back({u, v});
  }
  return picked;
}

}  // namespace

template <class vid_t, class eid_t>
edge_changes_t<vid_t> cycle_enum_batch(const graph_t<vid_t, eid_t>& graph,
                                       const cycle_enum_batch_options_t& o) {
  if (o.num_deletions < 0 || o.num_insertions < 0) {
    throw invalid_argument_error(std::string(k_fn) +
                                 ": num_deletions=" + std::to_string(o.num_deletions) +
                                 " and num_insertions=" + std::to_string(o.num_insertions) +
                                 " must both be >= 0; pass non-negative counts");
  }
  edge_changes_t<vid_t> out;
  if (o.num_deletions == 0 && o.num_insertions == 0) return out;
  const auto n = static_cast<size_t>(graph.num_vertices());
  if (n < 2) {
    throw invalid_argument_error(std::string(k_fn) + ": the graph has " + std::to_string(n) +
                                 " vertices; a batch needs at least 2");
  }
  if (n > (size_t{1} << 32)) {
    throw not_supported_error(std::string(k_fn) + ": the graph has " + std::to_string(n) +
                              " vertices but the tool's ids are 32-bit; use a smaller graph");
  }
  const auto view = graph.out_view();
  check_sorted_simple_rows(view, n);
  std::mt19937_64 rng(o.seed);
  const auto [lo, hi] = draw_window(rng, n, o.locality_window);
  if (o.num_deletions > 0) {
    emit(draw_deletions(view, lo, hi, o.num_deletions, rng), out.delete_src, out.delete_dst);
  }
  if (o.num_insertions > 0) {
    emit(draw_insertions(view, lo, hi, static_cast<size_t>(o.num_insertions), rng), out.insert_src,
         out.insert_dst);
  }
  return out;
}

template edge_changes_t<int32_t> cycle_enum_batch(const graph_t<int32_t, int32_t>&,
                                                  const cycle_enum_batch_options_t&);
template edge_changes_t<int32_t> cycle_enum_batch(const graph_t<int32_t, int64_t>&,
                                                  const cycle_enum_batch_options_t&);
template edge_changes_t<int64_t> cycle_enum_batch(const graph_t<int64_t, int64_t>&,
                                                  const cycle_enum_batch_options_t&);

}  // namespace dyng::generators
