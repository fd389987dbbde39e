// The per-rank steps of dyng.distributed's sssp on a rank's shard (a graph holding the out-edges
// of the vertices the rank owns, global ids): the owned search, the length scan, the cut walk
// and the seeding read. detail/owned_search.hpp has the kernels and says why the parents they
// record are canonical; they are compiled here, in the library, with its optimisation (the
// bindings are built for size).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dyng/graph/graph.hpp"
#include "dyng/sssp/detail/owned_search.hpp"

namespace dyng::sssp {

/// Dijkstra over tree's owned vertices from its active ones below `bound`, on the shard's rows
/// in weight column `objective`; offers to other ranks' vertices go to `out`. `max_length` (0:
/// unknown) is the shard's largest length. tree.rows is set from the shard. Throws
/// invalid_argument_error for an objective the shard does not have.
template <class vid_t, class eid_t>
void shard_search(const graph_t<vid_t, eid_t>& shard, int objective, detail::owned_tree_t& tree,
                  int64_t bound, int64_t max_length, detail::owned_search_out_t& out);

/// The count, sum, largest and smallest (with its edge) of the shard's lengths in `objective`.
template <class vid_t, class eid_t>
detail::shard_lengths_t shard_lengths(const graph_t<vid_t, eid_t>& shard, int objective);

/// cut_owned() on the shard's rows; tree.rows is set from the shard.
template <class vid_t, class eid_t>
int64_t shard_cut(const graph_t<vid_t, eid_t>& shard, detail::owned_tree_t& tree, bool* cut,
                  std::span<const int64_t> roots, int64_t limit, detail::cut_offers_t& out);

/// The offers (target, distance, source) of the shard's edges into `targets` from its owned
/// vertices with a distance in `tree`: their in-rows, or a scan of the owned out-rows when the
/// shard keeps no transpose; invalid_argument_error for an objective the shard does not have.
template <class vid_t, class eid_t>
void shard_offers_into(const graph_t<vid_t, eid_t>& shard, int objective,
                       const detail::owned_tree_t& tree, std::span<const int64_t> targets,
                       detail::owned_search_out_t& out);

}  // namespace dyng::sssp
