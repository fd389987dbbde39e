// Benchmark graphs for sssp_gpu_bench, generated in C++ with fixed seeds, and their slotted CSR.
//
// R-MAT (D. Chakrabarti, Y. Zhan, C. Faloutsos, SDM 2004) with a, b, c = .57, .19, .19, no
// vertex permutation, self-loops dropped and duplicates merged; 4-neighbour grids with every edge
// in both directions; weights uniform in 1..100. The parameters match bench/generators.py, but
// the random stream does not (numpy's PCG64 is not reproduced here): the graphs are the same
// distribution, not the same bits. Randomness is counter-based (splitmix64 of seed and index), so
// the result does not depend on the thread count.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace bench {

/// A directed edge list sorted by (src, dst), without self-loops or duplicates.
struct edge_list_t {
  std::string name;
  int64_t n = 0;
  std::vector<int64_t> src;
  std::vector<int64_t> dst;
  std::vector<int32_t> weight;
};

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Runs body(begin, end) over [0, count) split across the machine's threads.
template <class body_t>
void parallel_for(int64_t count, body_t&& body) {
  const int64_t threads = std::max<int64_t>(1, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t) {
    const int64_t begin = count * t / threads;
    const int64_t end = count * (t + 1) / threads;
    pool.emplace_back([&body, begin, end] { body(begin, end); });
  }
  for (auto& thread : pool) thread.join();
}

/// LSD radix sort of keys below 2^bits, 11 bits a pass.
inline void radix_sort(std::vector<uint64_t>& keys, int bits) {
  std::vector<uint64_t> scratch(keys.size());
  for (int shift = 0; shift < bits; shift += 11) {
    std::vector<size_t> count(2049, 0);
    for (uint64_t k : keys) ++count[((k >> shift) & 2047) + 1];
    for (int d = 0; d < 2048; ++d) count[d + 1] += count[d];
    for (uint64_t k : keys) scratch[count[(k >> shift) & 2047]++] = k;
    keys.swap(scratch);
  }
}

inline void add_weights(edge_list_t& g, uint64_t seed) {
  g.weight.resize(g.src.size());
  parallel_for(static_cast<int64_t>(g.src.size()), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      g.weight[i] = static_cast<int32_t>(splitmix64(seed * 0x632BE59BD9B4E019ull + i) % 100) + 1;
    }
  });
}

inline edge_list_t rmat(int scale, int edge_factor, uint64_t seed) {
  const int64_t n = int64_t{1} << scale;
  const int64_t draws = n * edge_factor;
  std::vector<uint64_t> keys(draws);
  parallel_for(draws, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      uint64_t state = splitmix64(seed ^ (static_cast<uint64_t>(i) * 0xD1B54A32D192ED03ull));
      uint64_t s = 0;
      uint64_t d = 0;
      for (int level = 0; level < scale; ++level) {
        if (level % 2 == 0) state = splitmix64(state);
        const double u =
            static_cast<double>((state >> (32 * (level % 2))) & 0xffffffffull) / 4294967296.0;
        const uint64_t sb = u >= 0.76 ? 1 : 0;                             // quadrants c, d
        const uint64_t db = (u >= 0.57 && u < 0.76) || u >= 0.95 ? 1 : 0;  // quadrants b, d
        s = (s << 1) | sb;
        d = (d << 1) | db;
      }
      keys[i] = s == d ? ~uint64_t{0} : (s << scale) | d;
    }
  });
  radix_sort(keys, 2 * scale);
  edge_list_t g;
  g.name = "rmat" + std::to_string(scale);
  g.n = n;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == ~uint64_t{0} || (i > 0 && keys[i] == keys[i - 1])) continue;
    g.src.push_back(static_cast<int64_t>(keys[i] >> scale));
    g.dst.push_back(static_cast<int64_t>(keys[i] & (n - 1)));
  }
  add_weights(g, seed + 1);
  return g;
}

inline edge_list_t grid(int64_t rows, int64_t cols, uint64_t seed) {
  edge_list_t g;
  g.name = rows == cols ? "grid" + std::to_string(rows)
                        : "grid" + std::to_string(rows) + "x" + std::to_string(cols);
  g.n = rows * cols;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t v = r * cols + c;
      // Neighbours in increasing id order keeps the list sorted by (src, dst).
      if (r > 0) g.src.push_back(v), g.dst.push_back(v - cols);
      if (c > 0) g.src.push_back(v), g.dst.push_back(v - 1);
      if (c + 1 < cols) g.src.push_back(v), g.dst.push_back(v + 1);
      if (r + 1 < rows) g.src.push_back(v), g.dst.push_back(v + cols);
    }
  }
  add_weights(g, seed);
  return g;
}

/// One direction as dyng stores it: rows with spare slots (headroom 1/8, at least one for a
/// non-empty row, as graph_t lays them out) holding junk that a kernel must never read.
template <class vid_t, class eid_t>
struct slotted_t {
  std::vector<eid_t> row_begin;
  std::vector<eid_t> row_end;
  std::vector<vid_t> col;
  std::vector<int32_t> weights;  // K per slot
  int num_weights = 1;
};

/// Builds one direction; `transpose` swaps src and dst. Weight column `objective` holds the
/// edge weights, other columns (K > 1) hold a decoy that would give wrong answers if used.
template <class vid_t, class eid_t>
slotted_t<vid_t, eid_t> build_slotted(const edge_list_t& g, bool transpose, int num_weights,
                                      int objective) {
  const auto& from = transpose ? g.dst : g.src;
  const auto& to = transpose ? g.src : g.dst;
  const int64_t n = g.n;
  std::vector<int64_t> degree(n + 1, 0);
  for (int64_t u : from) ++degree[u];
  slotted_t<vid_t, eid_t> s;
  s.num_weights = num_weights;
  s.row_begin.resize(n);
  s.row_end.resize(n);
  int64_t slot = 0;
  for (int64_t v = 0; v < n; ++v) {
    s.row_begin[v] = static_cast<eid_t>(slot);
    s.row_end[v] = static_cast<eid_t>(slot);
    const int64_t spare = degree[v] == 0 ? 0 : std::max<int64_t>(1, (degree[v] + 7) / 8);
    slot += degree[v] + spare;
  }
  s.col.assign(slot, 0);
  s.weights.assign(slot * num_weights, 1);
  for (int64_t v = 0; v < n; ++v) {
    const int64_t spare_begin = static_cast<int64_t>(s.row_begin[v]) + degree[v];
    const int64_t spare_end = v + 1 < n ? static_cast<int64_t>(s.row_begin[v + 1]) : slot;
    for (int64_t j = spare_begin; j < spare_end; ++j) s.col[j] = static_cast<vid_t>((v + 1) % n);
  }
  // Edges are sorted by src, so the out-rows fill in order; the in-rows fill by increasing src.
  for (size_t i = 0; i < from.size(); ++i) {
    const int64_t j = static_cast<int64_t>(s.row_end[from[i]]++);
    s.col[j] = static_cast<vid_t>(to[i]);
    for (int k = 0; k < num_weights; ++k) {
      s.weights[j * num_weights + k] = k == objective ? g.weight[i] : 1 + (g.weight[i] * 7 + k) % 3;
    }
  }
  return s;
}

}  // namespace bench
