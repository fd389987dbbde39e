// device_graph_t::apply() against graph_t::apply(): the same adversarial batches go to a host
// graph and to a device graph made from an equal one, and after every batch the two must agree
// on everything a user can see: the summary, the change log in order, the refusal (type and
// message) of an invalid batch with nothing changed, and every row slot for slot (columns and
// weights in order). The device graph's download() must also pass check_integrity(). A third
// graph takes each batch from device memory (as int64 arrays, staged and narrowed on the device)
// and must agree too. Every
// storage setting is covered (directed or not, in-edges or not, sorted or append rows, parallel
// edges or not, K = 0, 1, 3) and every semantics setting, with vertex growth, self-loops, repeats,
// cancelled pairs, and batches large enough to move rows to the tail and re-lay a direction out.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/core/errors.hpp"
#include "dyng/graph/cuda/device_batch.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/graph.hpp"
#include "gpu_test_util.hpp"
#include "graph/graph_test_util.hpp"

namespace {

using dyng::apply_summary_t;
using graph_test::same_changes;
using graph_test::same_summary;

/// Every row of `a` and `b` holds the same slots in the same order.
template <class vid_t, class eid_t>
bool same_rows(const dyng::adjacency_view_t<vid_t, eid_t>& a,
               const dyng::adjacency_view_t<vid_t, eid_t>& b) {
  if (a.num_vertices != b.num_vertices || a.num_weights != b.num_weights) return false;
  const int k = a.num_weights;
  for (vid_t v = 0; v < a.num_vertices; ++v) {
    if (a.degree(v) != b.degree(v)) return false;
    for (eid_t j = 0; j < a.degree(v); ++j) {
      const eid_t x = a.begin(v) + j, y = b.begin(v) + j;
      if (a.col[x] != b.col[y]) return false;
      for (int w = 0; w < k; ++w) {
        if (a.weights[static_cast<int64_t>(x) * k + w] !=
            b.weights[static_cast<int64_t>(y) * k + w]) {
          return false;
        }
      }
    }
  }
  return true;
}

template <class vid_t, class eid_t>
bool same_graph(const dyng::graph_t<vid_t, eid_t>& host,
                const dyng::graph_t<vid_t, eid_t>& device) {
  if (host.num_vertices() != device.num_vertices() || host.num_edges() != device.num_edges()) {
    return false;
  }
  if (!same_rows(host.out_view(), device.out_view())) return false;
  if (host.properties().directed && host.has_transposed() &&
      !same_rows(host.in_view(), device.in_view())) {
    return false;
  }
  return true;
}

struct setting_t {
  dyng::graph_properties_t props;
  const char* name;
};

/// The outcome of one apply: the summary, or the refusal's type and message.
struct outcome_t {
  apply_summary_t summary;
  std::string error;
};

template <class F>
outcome_t outcome_of(F&& apply) {
  outcome_t out;
  try {
    out.summary = apply();
  } catch (const dyng::invalid_argument_error& e) {
    out.error = std::string("invalid_argument: ") + e.what();
  } catch (const dyng::capacity_error& e) {
    out.error = std::string("capacity: ") + e.what();
  }
  return out;
}

/// A host array as int64 in device memory, described for staging (int64 ids and weights, which
/// staging narrows to the graph's types).
struct device_int64_t {
  dyng::cuda::device_buffer<int64_t> buffer;
  dyng::cuda::device_int_array_t array;

  template <class T>
  device_int64_t(std::span<const T> values, int64_t cols) {
    std::vector<int64_t> wide(values.begin(), values.end());
    buffer = dyng::cuda::device_buffer<int64_t>(wide.size());
    if (!wide.empty()) buffer.copy_from_host(wide.data(), wide.size());
    array.data = buffer.data();
    array.rows = static_cast<int64_t>(wide.size()) / std::max<int64_t>(cols, 1);
    array.cols = cols;
    array.row_stride = cols;
    array.col_stride = 1;
    array.bits = 64;
    array.is_signed = true;
  }
};

/// apply() of `batch` staged from device memory (device_graph_t::stage()).
template <class vid_t, class eid_t>
apply_summary_t apply_staged(dyng::cuda::device_graph_t<vid_t, eid_t>& graph,
                             const dyng::edge_batch_t<vid_t>& batch,
                             dyng::change_log_t<vid_t>* log) {
  const int k = batch.num_weights;
  const device_int64_t is(batch.insert_src, 1), id(batch.insert_dst, 1),
      iw(batch.insert_weights, k), ds(batch.delete_src, 1), dd(batch.delete_dst, 1);
  dyng::cuda::device_batch_arrays_t arrays{is.array, id.array, iw.array, ds.array, dd.array, k};
  const auto staged = graph.stage(arrays);
  if (staged.conversion.any()) throw std::runtime_error("the conversion found a fault");
  return graph.apply(staged, log);
}

template <class vid_t, class eid_t>
int run_setting(const setting_t& setting, uint32_t seed, int steps) {
  using graph_t = dyng::graph_t<vid_t, eid_t>;
  const auto& props = setting.props;
  const int k = props.num_weights;
  std::mt19937 rng(seed);
  const vid_t n0 = 60;
  std::vector<vid_t> src, dst;
  std::vector<int32_t> w;
  for (int e = 0; e < 400; ++e) {
    // A hub (vertex 0) and many small rows.
    src.push_back(static_cast<vid_t>(e % 3 == 0 ? 0 : rng() % n0));
    dst.push_back(static_cast<vid_t>(rng() % n0));
    for (int j = 0; j < k; ++j) w.push_back(static_cast<int32_t>(1 + rng() % 9));
  }
  graph_t host = graph_t::from_edges(n0, src, dst, w, props);
  dyng::cuda::device_graph_t<vid_t, eid_t> device(host, 0, nullptr);
  dyng::cuda::device_graph_t<vid_t, eid_t> staged_device(host, 0, nullptr);  // device batches
  int failures = 0;
  auto fail = [&](int step, const char* what) {
    std::printf("  %s, seed %u, step %d: %s\n", setting.name, seed, step, what);
    ++failures;
  };
  for (int step = 0; step < steps && failures == 0; ++step) {
    const vid_t n = host.num_vertices();
    // Small id ranges make repeats, cancelled pairs and existing edges common; every 5th batch
    // reaches past the vertex set; every 7th is large (rows move, tails run out).
    const int size =
        step % 7 == 6 ? 300 + static_cast<int>(rng() % 300) : static_cast<int>(rng() % 14);
    const vid_t range = step % 5 == 4 ? static_cast<vid_t>(n + 3) : (step % 2 ? n : vid_t{12});
    std::vector<vid_t> is, id, ds, dd;
    std::vector<int32_t> iw;
    for (int i = 0; i < size; ++i) {
      const bool hub = rng() % 4 == 0;
      is.push_back(hub ? vid_t{0} : static_cast<vid_t>(rng() % range));
      id.push_back(rng() % 9 == 0 ? is.back() : static_cast<vid_t>(rng() % range));
      for (int j = 0; j < k; ++j) iw.push_back(static_cast<int32_t>(1 + rng() % 9));
    }
    const int deletions = static_cast<int>(rng() % (size + 2));
    std::vector<vid_t> es, ed;
    std::vector<int32_t> ew;
    host.edges(es, ed, ew);
    for (int i = 0; i < deletions; ++i) {
      if (!es.empty() && rng() % 3 != 0) {
        const size_t at = rng() % es.size();
        ds.push_back(es[at]);
        dd.push_back(ed[at]);
      } else {
        ds.push_back(static_cast<vid_t>(rng() % range));
        dd.push_back(static_cast<vid_t>(rng() % range));
      }
    }
    // Now and then repeat a deletion or an insertion (as_sets collapses repeats).
    if (!ds.empty() && rng() % 3 == 0) {
      ds.push_back(ds[0]);
      dd.push_back(dd[0]);
    }
    if (!ds.empty() && rng() % 3 == 0) {  // delete and insert the same edge
      is.push_back(ds.back());
      id.push_back(dd.back());
      for (int j = 0; j < k; ++j) iw.push_back(static_cast<int32_t>(1 + rng() % 9));
    }
    const dyng::edge_batch_t<vid_t> batch{is, id, iw, k, ds, dd};
    dyng::change_log_t<vid_t> host_log, device_log;
    const outcome_t h = outcome_of([&] { return host.apply(batch, &host_log); });
    const outcome_t d = outcome_of([&] { return device.apply(batch, &device_log); });
    dyng::change_log_t<vid_t> staged_log;
    const outcome_t sd =
        outcome_of([&] { return apply_staged(staged_device, batch, &staged_log); });
    if (h.error != d.error || h.error != sd.error) {
      std::printf("    host: '%s'\n    device: '%s'\n    staged: '%s'\n", h.error.c_str(),
                  d.error.c_str(), sd.error.c_str());
      fail(step, "the refusals differ");
      continue;
    }
    if (h.error.empty()) {
      if (!same_summary(h.summary, d.summary)) fail(step, "the summaries differ");
      if (!same_changes(host_log, device_log)) fail(step, "the change logs differ");
      if (!same_summary(h.summary, sd.summary)) fail(step, "the staged batch's summary differs");
      if (!same_changes(host_log, staged_log)) fail(step, "the staged batch's change log differs");
    }
    if (!same_graph(host, staged_device.download())) fail(step, "the staged batch's rows differ");
    if (device.version() != host.version()) fail(step, "the versions differ");
    const graph_t copy = device.download();
    try {
      copy.check_integrity();
    } catch (const std::exception& e) {
      std::printf("    %s\n", e.what());
      fail(step, "the downloaded graph breaks an invariant");
    }
    if (!same_graph(host, copy)) fail(step, "the rows differ");
  }
  return failures;
}

std::vector<setting_t> settings() {
  std::vector<setting_t> out;
  for (const bool directed : {true, false}) {
    for (const bool transposed : {true, false}) {
      for (const auto order : {dyng::edge_order_t::sorted, dyng::edge_order_t::append}) {
        for (const bool parallel : {false, true}) {
          dyng::graph_properties_t p;
          p.directed = directed;
          p.store_transposed = transposed;
          p.order = order;
          p.allow_parallel_edges = parallel;
          p.num_weights = 1;
          out.push_back({p, "storage"});
        }
      }
    }
  }
  return out;
}

/// Rounds of very different sizes on one device graph, so that its apply workspace starts
/// small, outgrows its first block within a round (more blocks), merges them at the next round,
/// gives them back after a round beyond what it keeps, and serves a refused batch in between
/// (whose round never ends normally). Every round must still equal the host's apply; the sizes
/// are chosen to reach those paths (1 MiB first block, 256 MiB kept), which the test does not
/// observe directly.
template <class vid_t, class eid_t>
int run_workspace_rounds(const dyng::graph_properties_t& props, uint32_t seed) {
  using graph_t = dyng::graph_t<vid_t, eid_t>;
  const int k = props.num_weights;
  std::mt19937 rng(seed);
  const vid_t n0 = 20000;
  std::vector<vid_t> src, dst;
  std::vector<int32_t> w;
  for (int e = 0; e < 100000; ++e) {
    src.push_back(static_cast<vid_t>(e % 5 == 0 ? 0 : rng() % n0));
    dst.push_back(static_cast<vid_t>(rng() % n0));
    for (int j = 0; j < k; ++j) w.push_back(static_cast<int32_t>(1 + rng() % 9));
  }
  graph_t host = graph_t::from_edges(n0, src, dst, w, props);
  dyng::cuda::device_graph_t<vid_t, eid_t> device(host, 0, nullptr);
  int failures = 0;
  // Sizes in changes; a negative size is a batch refused for an id out of range (no growth).
  const int sizes[] = {10, 60000, 3, 150000, -40000, 7, 2500000, 12, 60000, 1};
  int step = 0;
  for (const int signed_size : sizes) {
    const int size = signed_size < 0 ? -signed_size : signed_size;
    const vid_t n = host.num_vertices();
    std::vector<vid_t> is, id, ds, dd;
    std::vector<int32_t> iw;
    for (int i = 0; i < size; ++i) {
      is.push_back(static_cast<vid_t>(rng() % 4 == 0 ? 0 : rng() % n));
      id.push_back(static_cast<vid_t>(rng() % n));
      for (int j = 0; j < k; ++j) iw.push_back(static_cast<int32_t>(1 + rng() % 9));
    }
    std::vector<vid_t> es, ed;
    std::vector<int32_t> ew;
    host.edges(es, ed, ew);
    for (int i = 0; i < size / 2 && !es.empty(); ++i) {
      const size_t at = rng() % es.size();
      ds.push_back(es[at]);
      dd.push_back(ed[at]);
    }
    if (signed_size < 0) is[is.size() / 2] = static_cast<vid_t>(n + 5);  // refused
    const dyng::edge_batch_t<vid_t> batch{is, id, iw, k, ds, dd};
    dyng::change_log_t<vid_t> host_log, device_log;
    const outcome_t h = outcome_of([&] { return host.apply(batch, &host_log); });
    const outcome_t d = outcome_of([&] { return device.apply(batch, &device_log); });
    if (h.error != d.error) {
      std::printf("  round %d: host '%s', device '%s'\n", step, h.error.c_str(), d.error.c_str());
      ++failures;
    } else if (signed_size < 0 && h.error.empty()) {
      std::printf("  round %d: the batch meant to be refused was applied\n", step);
      ++failures;
    }
    if (h.error.empty() &&
        (!same_summary(h.summary, d.summary) || !same_changes(host_log, device_log))) {
      std::printf("  round %d (%d changes): the summaries or change logs differ\n", step, size);
      ++failures;
    }
    if (!same_graph(host, device.download())) {
      std::printf("  round %d (%d changes): the rows differ\n", step, size);
      ++failures;
    }
    ++step;
  }
  return failures;
}

}  // namespace

DYNG_TEST("device apply equals host apply: every storage setting, K = 1") {
  int failures = 0;
  uint32_t seed = 1;
  for (const auto& s : settings()) {
    const auto& p = s.props;
    std::printf("directed %d transposed %d %s parallel %d\n", p.directed, p.store_transposed,
                p.order == dyng::edge_order_t::sorted ? "sorted" : "append",
                p.allow_parallel_edges);
    failures += run_setting<int32_t, int32_t>(s, seed++, 40);
  }
  CHECK_EQ(failures, 0);
}

DYNG_TEST("device apply equals host apply: every semantics setting") {
  int failures = 0;
  uint32_t seed = 100;
  for (const auto existing : {dyng::on_existing_insert_t::upsert, dyng::on_existing_insert_t::error,
                              dyng::on_existing_insert_t::ignore}) {
    for (const auto missing :
         {dyng::on_missing_delete_t::ignore, dyng::on_missing_delete_t::error}) {
      for (const auto loop :
           {dyng::on_self_loop_t::keep, dyng::on_self_loop_t::drop, dyng::on_self_loop_t::error}) {
        for (const bool deletions_first : {true, false}) {
          for (const bool as_sets : {false, true}) {
            dyng::graph_properties_t p;
            p.directed = seed % 2 == 0;
            p.allow_parallel_edges = seed % 3 == 0;
            p.order = seed % 5 == 0 ? dyng::edge_order_t::append : dyng::edge_order_t::sorted;
            p.semantics = {existing, missing, loop, deletions_first, seed % 4 != 1, as_sets};
            failures += run_setting<int32_t, int32_t>({p, "semantics"}, seed++, 12);
          }
        }
      }
    }
  }
  CHECK_EQ(failures, 0);
}

DYNG_TEST("device apply equals host apply: K = 0 and K = 3, all id types") {
  int failures = 0;
  for (const int k : {0, 3}) {
    dyng::graph_properties_t p;
    p.num_weights = k;
    p.allow_parallel_edges = k == 3;
    failures += run_setting<int32_t, int32_t>({p, "weights"}, 300 + k, 30);
    failures += run_setting<int32_t, int64_t>({p, "weights"}, 310 + k, 30);
    failures += run_setting<int64_t, int64_t>({p, "weights"}, 320 + k, 30);
    p.directed = false;
    failures += run_setting<int64_t, int64_t>({p, "weights"}, 330 + k, 30);
  }
  CHECK_EQ(failures, 0);
}

DYNG_TEST("device apply equals host apply: no headroom (every insertion moves or re-lays out)") {
  int failures = 0;
  for (const bool directed : {true, false}) {
    dyng::graph_properties_t p;
    p.directed = directed;
    p.headroom = 0.0;
    failures += run_setting<int32_t, int32_t>({p, "headroom 0"}, 400 + directed, 40);
  }
  CHECK_EQ(failures, 0);
}

DYNG_TEST("device apply equals host apply: rounds that grow, merge and give back the workspace") {
  int failures = 0;
  for (const bool directed : {true, false}) {
    dyng::graph_properties_t p;
    p.directed = directed;
    p.num_weights = directed ? 1 : 2;
    p.semantics.allow_vertex_growth = false;
    failures += run_workspace_rounds<int32_t, int32_t>(p, 500 + directed);
  }
  CHECK_EQ(failures, 0);
}

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
