// mospPrep's `changes` (MOSP-OpenMP src/changeGenerator.cpp, generateChangeBatch): a seeded
// batch of insertions, deletions or re-weighted edges for a K-objective graph.
//
// The draws, in the tool's order, from one std::mt19937 seeded with `seed`:
//   1. with local_hops > 0: the centre, uniform over all vertices (the ball is then fixed);
//   2. the insertions: two endpoint draws per attempt, a self-loop attempt discarded;
//   3. the deleted or re-weighted edges: uniform/reweight draw indices into the candidate list
//      with replacement, targeted/increase shuffle it (std::shuffle) and take a prefix;
//   4. the weights: K per insertion, then K per re-weighted edge.
// Candidates are the existing edges in CSR row order, first copy of each (u, v), no self-loops,
// or for targeted/increase the edges of the K canonical shortest-path trees from `source` (each
// vertex's lowest-id tight in-neighbour, as dyng 0.2.0 takes them), by child vertex
// then objective. Everything below follows from keeping those orders.
#include "dyng/generators/legacy.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <unordered_set>
#include <utility>

#include "dyng/core/stdlib_random.hpp"
#include "dyng/generators/detail/mosp_steps.hpp"

namespace dyng::generators {
namespace {

using edge_t = std::pair<int, int>;
constexpr const char* k_fn = "mosp_changes()";

uint64_t edge_key(int u, int v) {
  return (static_cast<uint64_t>(u) << 32) ^ static_cast<uint32_t>(v);
}

const char* mode_name(change_mode_t mode) {
  switch (mode) {
    case change_mode_t::uniform: return "uniform";
    case change_mode_t::targeted: return "targeted";
    case change_mode_t::reweight: return "reweight";
    case change_mode_t::increase: return "increase";
  }
  return "unknown";
}

void check_options(const detail::rows_t& g, const mosp_change_options_t& o) {
  auto fail = [](const std::string& what) {
    throw invalid_argument_error(std::string(k_fn) + ": " + what);
  };
  if (g.num_weights < 1) {
    throw not_supported_error(std::string(k_fn) +
                              ": the graph is unweighted but the generator draws weights for its "
                              "objectives; build the graph with weights");
  }
  if (g.n < 2) {
    fail("the graph has " + std::to_string(g.n) +
         " vertices but a change joins 2; pass a graph with at least 2 vertices");
  }
  if (o.num_changes < 0) {
    fail("num_changes=" + std::to_string(o.num_changes) + " is negative; pass a count >= 0");
  }
  if (o.num_changes > INT_MAX) {
    fail("num_changes=" + std::to_string(o.num_changes) +
         " exceeds the tool's int count 2147483647; generate several smaller batches");
  }
  if (o.weight_min < 1) {
    fail("weight_min=" + std::to_string(o.weight_min) + " is below 1; pass weight_min >= 1");
  }
  if (o.weight_min > o.weight_max) {
    fail("weight_min=" + std::to_string(o.weight_min) +
         " exceeds weight_max=" + std::to_string(o.weight_max) + "; pass weight_min <= weight_max");
  }
  if (o.source < 0 || o.source >= g.n) {
    fail("source=" + std::to_string(o.source) + " is not a vertex of the graph's " +
         std::to_string(g.n) + "; pass a source in [0, " + std::to_string(g.n) + ")");
  }
}

/// Edges eligible for deletion or re-weighting (see the header comment for the order).
std::vector<edge_t> candidates(const detail::rows_t& g, const std::vector<char>& in_region,
                               const std::vector<std::vector<int>>& trees) {
  std::vector<edge_t> edges;
  std::unordered_set<uint64_t> seen;
  const bool local = !in_region.empty();
  if (!trees.empty()) {
    for (int v = 0; v < g.n; ++v) {
      if (local && !in_region[v]) continue;
      for (const auto& tree : trees) {
        const int p = tree[v];
        if (p >= 0 && seen.insert(edge_key(p, v)).second) edges.emplace_back(p, v);
      }
    }
    return edges;
  }
  for (int u = 0; u < g.n; ++u) {
    if (local && !in_region[u]) continue;
    for (int64_t e = g.row_ptr[u]; e < g.row_ptr[u + 1]; ++e) {
      const int v = g.col[e];
      if (u == v || (local && !in_region[v])) continue;
      if (seen.insert(edge_key(u, v)).second) edges.emplace_back(u, v);
    }
  }
  return edges;
}

/// Drops deletions until no vertex reachable from `source` before the batch is cut off after
/// it: each round removes every deletion that touches a vertex the batch cuts off. Returns the
/// number of rounds (each round applies the whole batch once).
int64_t filter_unsafe(const detail::rows_t& g, int source, const std::vector<int>& ins_src,
                      const std::vector<int>& ins_dst, std::vector<int>& del_src,
                      std::vector<int>& del_dst) {
  const std::vector<char> before = detail::reachable(detail::adjacency_of(g), source);
  int64_t rounds = 0;
  while (!del_src.empty()) {
    ++rounds;
    const std::vector<char> after =
        detail::reachable(detail::adjacency_after(g, ins_src, ins_dst, del_src, del_dst), source);
    std::vector<char> lost(static_cast<size_t>(g.n), 0);
    bool any_lost = false;
    for (int v = 0; v < g.n; ++v) {
      lost[v] = before[v] && !after[v];
      any_lost = any_lost || lost[v];
    }
    if (!any_lost) break;
    std::vector<int> keep_src, keep_dst;
    for (size_t i = 0; i < del_src.size(); ++i) {
      if (!lost[del_src[i]] && !lost[del_dst[i]]) {
        keep_src.push_back(del_src[i]);
        keep_dst.push_back(del_dst[i]);
      }
    }
    // A cut-off vertex is the endpoint of some deleted edge, so a round always drops one.
    if (keep_src.size() == del_src.size()) break;
    del_src.swap(keep_src);
    del_dst.swap(keep_dst);
  }
  return rounds;
}

/// Per objective, the upper bound of targeted insertion weights: one below the graph's average
/// weight (the double sum truncated, as the tool does), at least weight_min.
std::vector<int> below_average(const detail::rows_t& g, const mosp_change_options_t& o) {
  std::vector<int> bound(static_cast<size_t>(g.num_weights), o.weight_max);
  if (o.mode != change_mode_t::targeted || g.num_edges() == 0) return bound;
  for (int k = 0; k < g.num_weights; ++k) {
    double sum = 0;
    for (int64_t e = 0; e < g.num_edges(); ++e) sum += g.weight(e, k);
    const int average = static_cast<int>(sum / static_cast<double>(g.num_edges()));
    bound[k] = std::max(o.weight_min, average - 1);
  }
  return bound;
}

/// How many insertions, deletions and re-weights a batch of o.num_changes holds.
struct change_counts_t {
  int inserts = 0;
  int deletes = 0;
  int reweights = 0;
};

change_counts_t count_changes(const mosp_change_options_t& o) {
  const int changes = static_cast<int>(o.num_changes);
  change_counts_t counts;
  if (o.mode == change_mode_t::uniform || o.mode == change_mode_t::targeted) {
    // llround's out-of-range result (NaN, huge percentages) narrowed to int, as in the tool.
    counts.inserts = static_cast<int>(std::llround(changes * o.insertion_percentage / 100.0));
    counts.inserts = std::max(0, std::min(counts.inserts, changes));
    counts.deletes = changes - counts.inserts;
  } else {
    counts.reweights = changes;
  }
  return counts;
}

/// The local region of draw 1: its vertices, a membership flag per vertex, and its centre (all
/// empty and -1 without local_hops).
struct local_region_t {
  std::vector<int> vertices;
  std::vector<char> member;
  int centre = -1;
};

local_region_t draw_region(const detail::rows_t& g, const mosp_change_options_t& o,
                           std::mt19937& rng) {
  local_region_t region;
  if (o.local_hops <= 0) return region;
  region.centre = stdlib_random::uniform_int(rng, 0, g.n - 1);
  region.vertices = detail::local_ball(g, detail::transpose(g), region.centre, o.local_hops);
  if (region.vertices.size() < 2) {
    throw invalid_argument_error(std::string(k_fn) +
                                 ": the region within local_hops=" + std::to_string(o.local_hops) +
                                 " of the drawn centre " + std::to_string(region.centre) +
                                 " holds fewer than 2 vertices; raise local_hops or change seed");
  }
  region.member.assign(static_cast<size_t>(g.n), 0);
  for (int v : region.vertices) region.member[v] = 1;
  return region;
}

/// Draw 2: `count` insertions, two endpoint draws per attempt, in the region when there is one.
std::vector<edge_t> draw_insertions(int n, int count, const local_region_t& region,
                                    std::mt19937& rng) {
  auto random_vertex = [&]() {
    if (region.vertices.empty()) return stdlib_random::uniform_int(rng, 0, n - 1);
    return region.vertices[stdlib_random::uniform_int<size_t>(rng, 0, region.vertices.size() - 1)];
  };
  std::vector<edge_t> edges;
  edges.reserve(static_cast<size_t>(count));
  while (static_cast<int>(edges.size()) < count) {
    // Two draws per attempt, endpoints in this order (argument order would be unspecified).
    const int u = random_vertex();
    const int v = random_vertex();
    if (u != v) edges.emplace_back(u, v);
  }
  return edges;
}

/// Draw 3: `wanted` edges to delete or re-weight from the candidates: with replacement, or for
/// the tree modes (`trees` given) a prefix of one shuffle.
std::vector<edge_t> draw_changed_edges(const detail::rows_t& g, const mosp_change_options_t& o,
                                       const local_region_t& region,
                                       const std::vector<std::vector<int>>& trees, int wanted,
                                       bool deleting, std::mt19937& rng) {
  const bool tree_only = !trees.empty();
  std::vector<edge_t> pool = candidates(g, region.member, trees);
  if (pool.empty()) {
    const std::string from =
        tree_only ? "the shortest-path-tree edges from source=" + std::to_string(o.source)
                  : std::string("the stored edges that are not self-loops");
    throw invalid_argument_error(
        std::string(k_fn) + ": no edge qualifies for " + (deleting ? "deletion" : "re-weighting") +
        " (mode '" + mode_name(o.mode) + "' draws from " + from +
        (region.vertices.empty() ? "" : " inside the local region") +
        ", and there are none); pass insertion_percentage=100, another source or seed, or a "
        "graph with such edges");
  }
  std::vector<edge_t> chosen;
  if (!tree_only) {
    const int last = static_cast<int>(pool.size()) - 1;
    for (int i = 0; i < wanted; ++i)
      chosen.push_back(pool[stdlib_random::uniform_int(rng, 0, last)]);
  } else {
    stdlib_random::shuffle(pool.begin(), pool.end(), rng);
    chosen.assign(pool.begin(), pool.begin() + std::min<size_t>(pool.size(), wanted));
  }
  return chosen;
}

/// Draw 4: the insertions' and then the re-weighted edges' K weights each, into out's insertion
/// lists (a re-weight is an insertion of an existing edge).
template <class vid_t>
void draw_weights(const detail::rows_t& g, const mosp_change_options_t& o,
                  const std::vector<edge_t>& insert_edges,
                  const std::vector<edge_t>& reweight_edges, std::mt19937& rng,
                  std::vector<int>& ins_src, std::vector<int>& ins_dst,
                  mosp_change_batch_t<vid_t>& out) {
  auto weight_dist = [&](std::mt19937& r) {
    return stdlib_random::uniform_int(r, o.weight_min, o.weight_max);
  };
  const std::vector<int> bound = below_average(g, o);
  for (const auto& [u, v] : insert_edges) {
    ins_src.push_back(u);
    ins_dst.push_back(v);
    for (int k = 0; k < g.num_weights; ++k) {
      out.insert_weights.push_back(o.mode == change_mode_t::targeted
                                       ? stdlib_random::uniform_int(rng, o.weight_min, bound[k])
                                       : weight_dist(rng));
    }
  }
  for (const auto& [u, v] : reweight_edges) {
    int64_t e = g.row_ptr[u];
    while (g.col[e] != v) ++e;  // the first copy of (u, v): the one a batch rewrites
    ins_src.push_back(u);
    ins_dst.push_back(v);
    for (int k = 0; k < g.num_weights; ++k) {
      if (o.mode == change_mode_t::increase) {
        // Saturates at the largest valid weight.
        const int64_t raised =
            static_cast<int64_t>(g.weight(e, k)) + stdlib_random::uniform_int(rng, 1, o.weight_max);
        out.insert_weights.push_back(static_cast<int32_t>(std::min<int64_t>(INT_MAX, raised)));
      } else {
        out.insert_weights.push_back(weight_dist(rng));
      }
    }
  }
}

/// The batch's one-line summary.
template <class vid_t>
std::string summary_of(const mosp_change_batch_t<vid_t>& out, const mosp_change_options_t& o) {
  std::ostringstream text;
  text << "inserts=" << out.inserts << " reweights=" << out.reweights << " deletes=" << out.deletes;
  if (o.safe_deletions) {
    text << " (safe: kept " << out.deletes << " of " << out.requested_deletes << " after "
         << out.safe_rounds << " rounds)";
  }
  if (out.centre >= 0) {
    text << " local centre=" << out.centre << " hops=" << o.local_hops << " region=" << out.region
         << " vertices";
  }
  return text.str();
}

template <class vid_t>
mosp_change_batch_t<vid_t> generate(const detail::rows_t& g, const mosp_change_options_t& o) {
  check_options(g, o);
  const bool tree_only = o.mode == change_mode_t::targeted || o.mode == change_mode_t::increase;
  const change_counts_t counts = count_changes(o);
  std::mt19937 rng(o.seed);
  const local_region_t region = draw_region(g, o, rng);
  std::vector<std::vector<int>> trees;
  if (tree_only) {
    for (int k = 0; k < g.num_weights; ++k) {
      trees.push_back(detail::shortest_path_tree(g, k, static_cast<int>(o.source)));
    }
  }
  const std::vector<edge_t> insert_edges = draw_insertions(g.n, counts.inserts, region, rng);
  std::vector<edge_t> delete_edges, reweight_edges;
  if (counts.deletes > 0 || counts.reweights > 0) {
    (counts.deletes > 0 ? delete_edges : reweight_edges) = draw_changed_edges(
        g, o, region, trees, std::max(counts.deletes, counts.reweights), counts.deletes > 0, rng);
  }

  mosp_change_batch_t<vid_t> out;
  std::vector<int> ins_src, ins_dst, del_src, del_dst;
  draw_weights(g, o, insert_edges, reweight_edges, rng, ins_src, ins_dst, out);
  for (const auto& [u, v] : delete_edges) {
    del_src.push_back(u);
    del_dst.push_back(v);
  }
  out.requested_deletes = static_cast<int64_t>(del_src.size());
  if (o.safe_deletions) {
    out.safe_rounds =
        filter_unsafe(g, static_cast<int>(o.source), ins_src, ins_dst, del_src, del_dst);
  }
  out.insert_src.assign(ins_src.begin(), ins_src.end());
  out.insert_dst.assign(ins_dst.begin(), ins_dst.end());
  out.delete_src.assign(del_src.begin(), del_src.end());
  out.delete_dst.assign(del_dst.begin(), del_dst.end());
  out.reweights = static_cast<int64_t>(reweight_edges.size());
  out.inserts = static_cast<int64_t>(ins_src.size()) - out.reweights;
  out.deletes = static_cast<int64_t>(del_src.size());
  out.centre = region.centre;
  out.region = static_cast<int64_t>(region.vertices.size());
  out.summary = summary_of(out, o);
  return out;
}

}  // namespace

template <class vid_t, class eid_t>
mosp_change_batch_t<vid_t> mosp_changes(const graph_t<vid_t, eid_t>& graph,
                                        const mosp_change_options_t& options) {
  if (static_cast<int64_t>(graph.num_vertices()) > INT_MAX) {
    throw not_supported_error(std::string(k_fn) + ": the graph has " +
                              std::to_string(graph.num_vertices()) +
                              " vertices but the tool's ids are int; use a graph below 2^31");
  }
  return generate<vid_t>(detail::rows_of(graph), options);
}

template mosp_change_batch_t<int32_t> mosp_changes(const graph_t<int32_t, int32_t>&,
                                                   const mosp_change_options_t&);
template mosp_change_batch_t<int32_t> mosp_changes(const graph_t<int32_t, int64_t>&,
                                                   const mosp_change_options_t&);
template mosp_change_batch_t<int64_t> mosp_changes(const graph_t<int64_t, int64_t>&,
                                                   const mosp_change_options_t&);

}  // namespace dyng::generators
