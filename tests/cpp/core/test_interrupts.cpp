// Stopping a call through its caller's flag (backend/cancel.hpp), on every host algorithm and both
// host backends (OpenMP teams forced onto small graphs): a compute or update whose flag is set
// throws interrupted_error; an update that throws leaves its state exactly as before (the flag
// set at the start, and set by another thread at times spread over the call, so that every part
// of an update, mosp's combined graph and path costs included, is hit); a call the flag did not
// stop gives what an unstopped call gives; and no team waits forever for a thread that stopped.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "check.hpp"
#include "dyng/backend/execution.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/dynamic_bfs/dynamic_bfs.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/mosp/mosp.hpp"
#include "dyng/sssp/sssp.hpp"
#include "dyng/triangle_delta/triangle_delta.hpp"

namespace {

using namespace dyng;
using graph32_t = graph_t<int32_t, int32_t>;

/// A random simple graph: sorted rows, in-edges stored, two weight columns.
graph32_t random_graph(std::mt19937_64& rng, int32_t n, int64_t m, bool directed) {
  std::vector<int32_t> src, dst, w;
  for (int64_t e = 0; e < m; ++e) {
    src.push_back(static_cast<int32_t>(rng() % n));
    dst.push_back(static_cast<int32_t>(rng() % n));
    if (src.back() == dst.back()) dst.back() = (dst.back() + 1) % n;
    w.push_back(static_cast<int32_t>(1 + rng() % 50));
    w.push_back(static_cast<int32_t>(1 + rng() % 50));
  }
  graph_properties_t p;
  p.directed = directed;
  p.store_transposed = true;
  p.num_weights = 2;
  return graph32_t::from_edges(n, src, dst, w, p);
}

/// A batch of `k` insertions and `k` deletions of stored edges, applied to `g`; returns its log.
change_log_t<int32_t> apply_batch(std::mt19937_64& rng, graph32_t& g, int k) {
  std::vector<int32_t> is, id, iw, ds, dd, src, dst, w;
  g.edges(src, dst, w);
  const int32_t n = g.num_vertices();
  for (int i = 0; i < k; ++i) {
    is.push_back(static_cast<int32_t>(rng() % n));
    id.push_back(static_cast<int32_t>((is.back() + 1 + rng() % (n - 1)) % n));
    iw.push_back(static_cast<int32_t>(1 + rng() % 50));
    iw.push_back(static_cast<int32_t>(1 + rng() % 50));
    const size_t e = rng() % src.size();
    ds.push_back(src[e]);
    dd.push_back(dst[e]);
  }
  change_log_t<int32_t> log;
  g.apply(edge_batch_t<int32_t>{is, id, iw, 2, ds, dd}, &log);
  return log;
}

bool same(const sssp::state_t<int32_t>& a, const sssp::state_t<int32_t>& b) {
  return a.source == b.source && a.distances == b.distances && a.parents == b.parents;
}
bool same(const dynamic_bfs::state_t<int32_t>& a, const dynamic_bfs::state_t<int32_t>& b) {
  return a.source == b.source && a.levels == b.levels;
}
bool same(const triangle_delta::state_t<int32_t>& a, const triangle_delta::state_t<int32_t>& b) {
  return a.num_vertices == b.num_vertices && a.count == b.count;
}
bool same(const cycle_count::state_t<int32_t>& a, const cycle_count::state_t<int32_t>& b) {
  return a.num_vertices == b.num_vertices && a.counts == b.counts;
}
/// The same rows in the same order with the same first weights (slot offsets may differ).
template <class V>
bool same_rows(const V& a, const V& b) {
  if (a.num_vertices != b.num_vertices) return false;
  for (int32_t v = 0; v < a.num_vertices; ++v) {
    if (a.degree(v) != b.degree(v)) return false;
    for (int64_t j = 0; j < a.degree(v); ++j) {
      if (a.neighbour(a.begin(v) + j) != b.neighbour(b.begin(v) + j) ||
          a.weight(a.begin(v) + j, 0) != b.weight(b.begin(v) + j, 0)) {
        return false;
      }
    }
  }
  return true;
}
bool same(const mosp::state_t<int32_t>& a, const mosp::state_t<int32_t>& b) {
  if (a.trees.size() != b.trees.size()) return false;
  for (size_t i = 0; i < a.trees.size(); ++i) {
    if (!same(a.trees[i], b.trees[i])) return false;
  }
  return a.consistent && b.consistent && a.combined_distances == b.combined_distances &&
         a.combined_parents == b.combined_parents && a.path_costs == b.path_costs &&
         a.has_path_costs == b.has_path_costs &&
         a.combined_graph.num_edges() == b.combined_graph.num_edges() &&
         same_rows(a.combined_graph.out_view(), b.combined_graph.out_view()) &&
         same_rows(a.combined_graph.in_view(), b.combined_graph.in_view());
}

/// The executions a test runs on: sequential, and OpenMP on two threads.
std::vector<execution_t> executions() {
  return {execution_t{backend_t::sequential, 1, 0}, execution_t{backend_t::openmp, 2, 0}};
}

/// Runs call(exec) with exec.cancel's flag set after `delay` (0: before the call) by another
/// thread; true when the call ran to its end, false when it threw interrupted_error.
template <class F>
bool run_stopped_after(execution_t exec, std::chrono::microseconds delay, F&& call) {
  std::atomic<bool> stop{delay.count() == 0};
  exec.cancel.flag = &stop;
  std::thread setter([&] {
    if (delay.count() > 0) std::this_thread::sleep_for(delay);
    stop.store(true);
  });
  bool finished = true;
  try {
    call(static_cast<const execution_t&>(exec));
  } catch (const interrupted_error&) {
    finished = false;
  }
  setter.join();
  return finished;
}

/// The delays at which a test stops its calls: at the start, then doubling.
std::vector<std::chrono::microseconds> delays() {
  std::vector<std::chrono::microseconds> out{std::chrono::microseconds(0)};
  for (int64_t d = 25; d <= 51200; d *= 2) out.push_back(std::chrono::microseconds(d));
  return out;
}

/// For each execution and delay: a compute either ends with the unstopped compute's state or
/// throws; an update (on `after`, from `computed`, for `log`) either ends with the unstopped
/// update's state or throws and leaves the state as it was. compute(g, exec, state) and
/// update(g, log, exec, state) call the algorithm with its options. Stopped at the start, both
/// must throw.
template <class S, class C, class U>
void stops_leave_states_whole(const char* name, const graph32_t& before, const graph32_t& after,
                              const change_log_t<int32_t>& log, C&& compute, U&& update) {
  int stopped = 0, finished = 0;
  for (const execution_t& exec : executions()) {
    S reference;
    compute(before, exec, reference);
    S updated = reference;
    update(after, log, exec, updated);
    for (const auto delay : delays()) {
      S fresh;
      const bool computed =
          run_stopped_after(exec, delay, [&](const execution_t& e) { compute(before, e, fresh); });
      if (delay.count() == 0) CHECK(!computed);
      if (computed) CHECK(same(fresh, reference));
      S state = reference;
      const bool done = run_stopped_after(
          exec, delay, [&](const execution_t& e) { update(after, log, e, state); });
      if (delay.count() == 0) CHECK(!done);
      const bool whole = done ? same(state, updated) : same(state, reference);
      if (!whole) {
        std::fprintf(stderr, "  %s on %d threads, stopped after %lld us: the update %s\n", name,
                     exec.num_threads, static_cast<long long>(delay.count()),
                     done ? "ended with another state" : "threw with the state changed");
      }
      CHECK(whole);
      ++(done ? finished : stopped);
    }
  }
  CHECK(stopped > 0);
  std::printf("  %s: %d updates stopped, %d ran to the end\n", name, stopped, finished);
}

struct graphs_t {
  graph32_t before, after;
  change_log_t<int32_t> log;
};

graphs_t graphs(uint64_t seed, int32_t n, int64_t m, bool directed, int changes) {
  std::mt19937_64 rng(seed);
  graphs_t g{random_graph(rng, n, m, directed), {}, {}};
  g.after = g.before;
  g.log = apply_batch(rng, g.after, changes);
  return g;
}

DYNG_TEST("sssp: stopped computes throw, stopped updates leave the state as it was") {
  const auto g = graphs(1, 20000, 160000, true, 100);
  for (const double budget : {-1.0, 0.0}) {  // the repair, and the recompute
    sssp::options_t o;
    o.parallel_min_edges = 0;
    o.repair_budget = budget;
    stops_leave_states_whole<sssp::state_t<int32_t>>(
        "sssp", g.before, g.after, g.log,
        [&](const graph32_t& gr, const execution_t& e, auto& s) {
          sssp::compute(gr, int32_t{0}, o, e, s);
        },
        [&](const graph32_t& gr, const auto& l, const execution_t& e, auto& s) {
          sssp::update(gr, l, o, e, s);
        });
  }
}

DYNG_TEST("dynamic_bfs: stopped computes throw, stopped updates leave the state as it was") {
  const auto g = graphs(2, 20000, 160000, true, 100);
  for (const double budget : {-1.0, 0.0}) {
    dynamic_bfs::options_t o;
    o.parallel_min_edges = 0;
    o.repair_budget = budget;
    stops_leave_states_whole<dynamic_bfs::state_t<int32_t>>(
        "dynamic_bfs", g.before, g.after, g.log,
        [&](const graph32_t& gr, const execution_t& e, auto& s) {
          dynamic_bfs::compute(gr, int32_t{0}, o, e, s);
        },
        [&](const graph32_t& gr, const auto& l, const execution_t& e, auto& s) {
          dynamic_bfs::update(gr, l, o, e, s);
        });
  }
}

DYNG_TEST("mosp: stopped computes throw, stopped updates leave the state as it was") {
  const auto g = graphs(3, 20000, 160000, true, 100);
  for (const double budget : {-1.0, 0.0}) {
    mosp::options_t o;
    o.parallel_min_edges = 0;
    o.repair_budget = budget;
    stops_leave_states_whole<mosp::state_t<int32_t>>(
        "mosp", g.before, g.after, g.log,
        [&](const graph32_t& gr, const execution_t& e, auto& s) {
          mosp::compute(gr, int32_t{0}, o, e, s);
        },
        [&](const graph32_t& gr, const auto& l, const execution_t& e, auto& s) {
          mosp::update(gr, l, o, e, s);
        });
  }
}

DYNG_TEST("triangle_delta: stopped computes throw, stopped updates leave the state as it was") {
  const auto g = graphs(4, 3000, 60000, false, 100);
  for (const double budget : {-1.0, 0.0}) {
    triangle_delta::options_t o;
    o.parallel_min_edges = 0;
    o.repair_budget = budget;
    stops_leave_states_whole<triangle_delta::state_t<int32_t>>(
        "triangle_delta", g.before, g.after, g.log,
        [&](const graph32_t& gr, const execution_t& e, auto& s) {
          triangle_delta::compute(gr, o, e, s);
        },
        [&](const graph32_t& gr, const auto& l, const execution_t& e, auto& s) {
          triangle_delta::update(gr, l, o, e, s);
        });
  }
}

DYNG_TEST("cycle_count: stopped computes throw, stopped updates leave the state as it was") {
  const auto g = graphs(5, 400, 2400, true, 20);
  for (const double budget : {-1.0, 0.0}) {
    cycle_count::options_t o;
    o.max_length = 6;
    o.parallel_min_edges = 0;
    o.repair_budget = budget;
    stops_leave_states_whole<cycle_count::state_t<int32_t>>(
        "cycle_count", g.before, g.after, g.log,
        [&](const graph32_t& gr, const execution_t& e, auto& s) {
          cycle_count::compute(gr, o, e, s);
        },
        [&](const graph32_t& gr, const auto& l, const execution_t& e, auto& s) {
          cycle_count::update(gr, l, o, e, s);
        });
  }
}

}  // namespace

DYNG_TEST_MAIN()
