// A deliberately simple test graph for the SSSP kernel tests: an edge list that rebuilds its
// out- and in-adjacency from scratch after every change, with optional spare slots between rows
// and shuffled row order, so that the kernels are exercised on the slotted, unsorted layout the
// real graph may have. Changes are reported in a change_log_t the way Graph::apply reports them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "dyng/graph/change_log.hpp"
#include "dyng/sssp/detail/host_entry.hpp"

namespace sssp_test {

template <class vid_t, class eid_t>
class model_graph_t {
 public:
  struct edge_t {
    vid_t src;
    vid_t dst;
    std::vector<int32_t> weights;
  };

  model_graph_t(vid_t n, int num_weights, bool directed, uint64_t layout_seed)
      : n_(n), k_(num_weights), directed_(directed), rng_(layout_seed) {}

  vid_t num_vertices() const { return n_; }
  int num_weights() const { return k_; }
  bool directed() const { return directed_; }
  const std::vector<edge_t>& edges() const { return edges_; }

  /// Adds (u, v), and (v, u) when undirected and u != v, as new slots.
  void insert(vid_t u, vid_t v, const std::vector<int32_t>& w, dyng::change_log_t<vid_t>* log) {
    add_slot(u, v, w, log);
    if (!directed_ && u != v) add_slot(v, u, w, log);
  }

  /// Removes stored edge `index` (and its mirror when undirected).
  void remove(size_t index, dyng::change_log_t<vid_t>* log) {
    const edge_t e = edges_[index];
    erase_slot(index, log);
    if (!directed_ && e.src != e.dst) erase_slot(find(e.dst, e.src, e.weights), log);
  }

  /// Sets new weights on stored edge `index` (and its mirror).
  void reweight(size_t index, const std::vector<int32_t>& w, dyng::change_log_t<vid_t>* log) {
    const edge_t e = edges_[index];
    if (!directed_ && e.src != e.dst) set_slot(find(e.dst, e.src, e.weights), w, log);
    set_slot(index, w, log);
  }

  void grow(vid_t new_n) { n_ = std::max(n_, new_n); }

  /// Rebuilds both directions. Rows get random spare slots and a shuffled order when asked, and
  /// are sorted by neighbour id (the graph's "sorted" order, which the kernels exploit) otherwise.
  void build(bool shuffle_rows, bool spare_slots) {
    sorted_ = !shuffle_rows;
    build_direction(out_, true, shuffle_rows, spare_slots);
    build_direction(in_, false, shuffle_rows, spare_slots);
  }

  dyng::sssp::detail::graph_views_t<vid_t, eid_t> views() const {
    return {view_of(out_), view_of(in_), static_cast<int64_t>(edges_.size()), sorted_};
  }

 private:
  struct storage_t {
    std::vector<eid_t> begin, end;
    std::vector<vid_t> col;
    std::vector<int32_t> weights;
  };

  size_t find(vid_t u, vid_t v, const std::vector<int32_t>& w) const {
    for (size_t i = 0; i < edges_.size(); ++i) {
      if (edges_[i].src == u && edges_[i].dst == v && edges_[i].weights == w) return i;
    }
    return edges_.size();  // unreachable for a consistent mirror
  }

  void add_slot(vid_t u, vid_t v, const std::vector<int32_t>& w, dyng::change_log_t<vid_t>* log) {
    edges_.push_back({u, v, w});
    if (log) log->changes.push_back({u, v, dyng::edge_change_kind_t::inserted});
  }

  void erase_slot(size_t index, dyng::change_log_t<vid_t>* log) {
    if (log) {
      log->changes.push_back(
          {edges_[index].src, edges_[index].dst, dyng::edge_change_kind_t::deleted});
    }
    edges_.erase(edges_.begin() + static_cast<std::ptrdiff_t>(index));
  }

  void set_slot(size_t index, const std::vector<int32_t>& w, dyng::change_log_t<vid_t>* log) {
    edges_[index].weights = w;
    if (log) {
      log->changes.push_back(
          {edges_[index].src, edges_[index].dst, dyng::edge_change_kind_t::reweighted});
    }
  }

  void build_direction(storage_t& s, bool outgoing, bool shuffle_rows, bool spare_slots) {
    std::vector<std::vector<size_t>> rows(static_cast<size_t>(n_));
    for (size_t i = 0; i < edges_.size(); ++i) {
      rows[static_cast<size_t>(outgoing ? edges_[i].src : edges_[i].dst)].push_back(i);
    }
    s.begin.assign(static_cast<size_t>(n_), 0);
    s.end.assign(static_cast<size_t>(n_), 0);
    s.col.clear();
    s.weights.clear();
    // Rows are laid out in a random order of vertices, so row_begin is not monotone either.
    std::vector<vid_t> order(static_cast<size_t>(n_));
    for (vid_t v = 0; v < n_; ++v) order[static_cast<size_t>(v)] = v;
    if (shuffle_rows) std::shuffle(order.begin(), order.end(), rng_);
    for (const vid_t v : order) {
      std::vector<size_t>& row = rows[static_cast<size_t>(v)];
      if (shuffle_rows) {
        std::shuffle(row.begin(), row.end(), rng_);
      } else {
        std::stable_sort(row.begin(), row.end(), [&](size_t a, size_t b) {
          return (outgoing ? edges_[a].dst : edges_[a].src) <
                 (outgoing ? edges_[b].dst : edges_[b].src);
        });
      }
      s.begin[static_cast<size_t>(v)] = static_cast<eid_t>(s.col.size());
      for (const size_t i : row) {
        s.col.push_back(outgoing ? edges_[i].dst : edges_[i].src);
        for (int k = 0; k < k_; ++k) s.weights.push_back(edges_[i].weights[static_cast<size_t>(k)]);
      }
      s.end[static_cast<size_t>(v)] = static_cast<eid_t>(s.col.size());
      const int spare = spare_slots ? static_cast<int>(rng_() % 3) : 0;
      for (int j = 0; j < spare; ++j) {
        s.col.push_back(static_cast<vid_t>(-7));  // garbage a kernel must never read
        for (int k = 0; k < k_; ++k) s.weights.push_back(-1000);
      }
    }
    s.col.push_back(static_cast<vid_t>(-7));  // keep data() non-null for empty graphs
    s.weights.resize(s.weights.size() + static_cast<size_t>(std::max(k_, 1)), -1000);
  }

  dyng::adjacency_view_t<vid_t, eid_t> view_of(const storage_t& s) const {
    dyng::adjacency_view_t<vid_t, eid_t> v;
    v.num_vertices = n_;
    v.num_weights = k_;
    v.row_begin = s.begin.data();
    v.row_end = s.end.data();
    v.col = s.col.data();
    v.weights = k_ > 0 ? s.weights.data() : nullptr;
    return v;
  }

  vid_t n_;
  int k_;
  bool directed_;
  bool sorted_ = false;
  std::mt19937_64 rng_;
  std::vector<edge_t> edges_;
  storage_t out_, in_;
};

}  // namespace sssp_test
