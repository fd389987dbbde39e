// A deliberately naive model of a graph under apply(): rows are plain vectors edited one
// operation at a time, exactly as the spec words the semantics. The randomized suites compare
// graph_t against it after every batch.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace graph_test {

struct model_t {
  using slot_t = std::pair<int64_t, std::vector<int32_t>>;
  int64_t n = 0;
  bool directed = true;
  bool sorted = true;
  bool parallel = false;
  std::vector<std::vector<slot_t>> out, in;

  static int64_t find_first(const std::vector<slot_t>& r, int64_t c) {
    for (size_t i = 0; i < r.size(); ++i) {
      if (r[i].first == c) return static_cast<int64_t>(i);
    }
    return -1;
  }
  void add(std::vector<slot_t>& r, int64_t c, const std::vector<int32_t>& w) {
    if (!sorted) {
      r.push_back({c, w});
      return;
    }
    auto it = std::upper_bound(r.begin(), r.end(), c,
                               [](int64_t x, const slot_t& s) { return x < s.first; });
    r.insert(it, {c, w});
  }
  // Each stored slot (u -> v) lives in out[u] and in in[v]; undirected graphs also hold (v -> u).
  void each_copy(int64_t u, int64_t v, auto&& f) {
    f(out[u], v);
    if (directed) {
      f(in[v], u);
    } else if (u != v) {
      f(out[v], u);
    }
  }
  bool exists(int64_t u, int64_t v) const { return u < n && v < n && find_first(out[u], v) >= 0; }

  /// Applies a batch given as (u, v, w) insertions and (u, v) deletions.
  dyng::apply_summary_t apply(
      const std::vector<std::pair<std::pair<int64_t, int64_t>, std::vector<int32_t>>>& ins,
      const std::vector<std::pair<int64_t, int64_t>>& del, const dyng::batch_semantics_t& sem) {
    dyng::apply_summary_t s;
    auto key = [&](int64_t u, int64_t v) {
      return directed ? std::pair{u, v} : std::pair{std::min(u, v), std::max(u, v)};
    };
    int64_t new_n = n;
    for (const auto& [e, w] : ins) {
      if (e.first == e.second && sem.on_self_loop == dyng::on_self_loop_t::drop) continue;
      new_n = std::max({new_n, e.first + 1, e.second + 1});
    }
    s.inserted_vertices = new_n - n;
    n = new_n;
    out.resize(n);
    in.resize(directed ? n : 0);
    s.num_vertices_after = n;

    std::set<std::pair<int64_t, int64_t>> seen_ins, seen_del, erased, inserted;
    auto do_del = [&](int64_t u, int64_t v) {
      const int64_t mult = (!directed && u != v) ? 2 : 1;
      // Under set semantics repeats collapse before anything is counted (as in 0.2).
      if (sem.as_sets && !seen_del.insert(key(u, v)).second) return;
      if (!exists(u, v)) {
        s.ignored_deletions += mult;
        return;
      }
      each_copy(u, v,
                [&](std::vector<slot_t>& r, int64_t c) { r.erase(r.begin() + find_first(r, c)); });
      s.deleted_edges += mult;
      erased.insert(key(u, v));
    };
    auto do_ins = [&](int64_t u, int64_t v, const std::vector<int32_t>& w) {
      const int64_t mult = (!directed && u != v) ? 2 : 1;
      if (u == v && sem.on_self_loop == dyng::on_self_loop_t::drop) {
        ++s.dropped_self_loops;
        return;
      }
      if (sem.as_sets && !seen_ins.insert(key(u, v)).second) return;
      if (!exists(u, v)) {
        each_copy(u, v, [&](std::vector<slot_t>& r, int64_t c) { add(r, c, w); });
        s.inserted_edges += mult;
        inserted.insert(key(u, v));
      } else if (sem.on_existing_insert == dyng::on_existing_insert_t::upsert) {
        each_copy(u, v, [&](std::vector<slot_t>& r, int64_t c) { r[find_first(r, c)].second = w; });
        s.updated_edges += mult;
      } else {
        s.ignored_insertions += mult;
      }
    };
    auto run_dels = [&] {
      for (const auto& [u, v] : del) do_del(u, v);
    };
    auto run_ins = [&] {
      for (const auto& [e, w] : ins) do_ins(e.first, e.second, w);
    };
    if (sem.deletions_first) {
      run_dels();
      run_ins();
    } else {
      run_ins();
      run_dels();
    }
    if (sem.as_sets) {
      for (const auto& k : erased) {
        if (inserted.count(k)) s.cancelled_pairs += (k.first != k.second && !directed) ? 2 : 1;
      }
    }
    return s;
  }

  int64_t num_edges() const {
    int64_t m = 0;
    for (const auto& r : out) m += static_cast<int64_t>(r.size());
    return m;
  }
};

}  // namespace graph_test
