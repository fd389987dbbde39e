// The structural changes of a batch as edge pairs, read from its change log: what the
// algorithms that count over the whole graph repair from.
#pragma once

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "dyng/graph/change_log.hpp"

namespace dyng {

template <class vid_t>
using edge_pair_t = std::pair<vid_t, vid_t>;

/// The deleted and the inserted pairs (u, v) of `log`, u != v (self-loops and reweights change
/// no cycle or triangle), each list sorted without repeats, with an edge both deleted and
/// inserted (it is there before and after the batch) dropped from both. `lower_first` keeps only
/// u < v: an undirected change is logged in both directions.
template <class vid_t>
void changed_pairs(const change_log_t<vid_t>& log, bool lower_first,
                   std::vector<edge_pair_t<vid_t>>& deleted,
                   std::vector<edge_pair_t<vid_t>>& inserted) {
  for (const auto& c : log.changes) {
    if (c.src == c.dst || (lower_first && c.src > c.dst)) continue;
    if (c.kind == edge_change_kind_t::deleted) deleted.push_back({c.src, c.dst});
    if (c.kind == edge_change_kind_t::inserted) inserted.push_back({c.src, c.dst});
  }
  for (auto* list : {&deleted, &inserted}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  std::vector<edge_pair_t<vid_t>> both;
  std::set_intersection(deleted.begin(), deleted.end(), inserted.begin(), inserted.end(),
                        std::back_inserter(both));
  for (auto* list : {&deleted, &inserted}) {
    std::vector<edge_pair_t<vid_t>> kept;
    std::set_difference(list->begin(), list->end(), both.begin(), both.end(),
                        std::back_inserter(kept));
    list->swap(kept);
  }
}

}  // namespace dyng
