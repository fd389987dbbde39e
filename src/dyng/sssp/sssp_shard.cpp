// The per-rank steps of dyng.distributed's sssp (sssp_shard.hpp), instantiated for the compiled
// id/offset combinations.
#include "dyng/sssp/sssp_shard.hpp"

#include <string>

#include "dyng/core/graph_types.hpp"
#include "dyng/core/errors.hpp"

namespace dyng::sssp {
namespace {

template <class vid_t, class eid_t>
detail::weight_column_t objective_column(const graph_t<vid_t, eid_t>& shard, int objective,
                                         const char* fn) {
  const auto out = shard.out_view();
  if (objective < 0 || objective >= out.num_weights) {
    throw invalid_argument_error(std::string(fn) + "(): objective=" + std::to_string(objective) +
                                 " but the shard has " + std::to_string(out.num_weights) +
                                 " weight columns; pass 0 <= objective < the column count");
  }
  return detail::column_of(out, objective);
}

}  // namespace

template <class vid_t, class eid_t>
void shard_search(const graph_t<vid_t, eid_t>& shard, int objective, detail::owned_tree_t& tree,
                  int64_t bound, int64_t max_length, detail::owned_search_out_t& out) {
  const detail::column_rows_t<vid_t, eid_t> rows{
      shard.out_view(), objective_column(shard, objective, "sssp_shard_search")};
  tree.rows = shard.num_vertices();
  detail::owned_search<decltype(rows), vid_t>(rows, tree, bound, max_length, out);
}

template <class vid_t, class eid_t>
detail::shard_lengths_t shard_lengths(const graph_t<vid_t, eid_t>& shard, int objective) {
  return detail::scan_shard_lengths(shard.out_view(),
                                    objective_column(shard, objective, "sssp_shard_lengths"));
}

template <class vid_t, class eid_t>
int64_t shard_cut(const graph_t<vid_t, eid_t>& shard, detail::owned_tree_t& tree, bool* cut,
                  std::span<const int64_t> roots, int64_t limit, detail::cut_offers_t& out) {
  tree.rows = shard.num_vertices();
  return detail::cut_owned(shard.out_view(), tree, cut, roots, limit, out);
}

template <class vid_t, class eid_t>
void shard_offers_into(const graph_t<vid_t, eid_t>& shard, int objective,
                       const detail::owned_tree_t& tree, std::span<const int64_t> targets,
                       detail::owned_search_out_t& out) {
  objective_column(shard, objective, "sssp_shard_offers_into");  // checks the objective
  if (shard.has_transposed()) {
    detail::shard_offers_into(shard.in_view(), objective, tree, targets, out);
  } else {
    detail::shard_offers_into_by_scan(shard.out_view(), objective, tree, targets, out);
  }
}

#define DYNG_INSTANTIATE_SSSP_SHARD(VID, EID)                                                 \
  template void shard_search(const graph_t<VID, EID>&, int, detail::owned_tree_t&, int64_t,   \
                             int64_t, detail::owned_search_out_t&);                           \
  template detail::shard_lengths_t shard_lengths(const graph_t<VID, EID>&, int);              \
  template int64_t shard_cut(const graph_t<VID, EID>&, detail::owned_tree_t&, bool*,          \
                             std::span<const int64_t>, int64_t, detail::cut_offers_t&);       \
  template void shard_offers_into(const graph_t<VID, EID>&, int, const detail::owned_tree_t&, \
                                  std::span<const int64_t>, detail::owned_search_out_t&);
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_SSSP_SHARD)
#undef DYNG_INSTANTIATE_SSSP_SHARD

}  // namespace dyng::sssp
