// sssp_gpu_bench: times dyng::sssp::cuda::compute (distances + canonical parents) on generated
// R-MAT and grid graphs and checks every run against a CPU Dijkstra; with --updates, also times
// dyng::sssp::cuda::update after uniform batches next to recomputes (update_bench.hpp).
//
// For each graph: generate (graphs.hpp), solve on the CPU (reference.hpp), lay out and upload the
// slotted CSR in both directions, then for every configuration in the cartesian product of the
// --sweep: one warm-up run, then --reps runs, each after poisoning the
// outputs, timed with CUDA events around the whole compute() call (which includes its two host
// synchronisations) and checked bit for bit; then the parent pass alone. Prints one row per
// configuration: median, min and max time of compute(), median time of the parent pass,
// GTEPS (stored edges / time) and the achieved rate of the minimum traffic (both CSR directions
// read once, distances written and read once, parents written once) against the measured
// device-to-device copy bandwidth.
//
// Usage: sssp_gpu_bench [--graphs rmat22,grid2048] [--reps 10] [--types i32i32,i32i64,i64i64]
//        [--sweep "g=8,16 b=2 d=25,50 / g=4 d=3000"] [--weights K] [--source 0] [--table FILE]
//        [--compute 1] [--updates 1000,100000] [--update-reps 5] [--budgets -1,0.05]
//        [--repair-deltas 0,3232] [--verbose 0]
// where g = group size, b = blocks per SM, d = delta (0: library default); --compute 0 skips the
// compute section (and the CPU oracle); --updates lists batch sizes, each measured for every
// budget (negative: library default) and repair bucket width (0: library default).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/sssp/detail/cuda_views.hpp"
#include "graphs.hpp"
#include "reference.hpp"
#include "update_bench.hpp"

namespace {

using dyng::cuda::device_buffer;

/// One measured configuration: tuning knobs and bucket width (0: the library's choice).
struct config_t {
  long long group = 0;
  long long bps = 0;
  long long delta = 0;
};

struct options_t {
  std::vector<std::string> graphs{"rmat22", "grid2048"};
  std::vector<std::string> types{"i32i32"};
  std::vector<config_t> configs{config_t{}};
  int reps = 10;
  int num_weights = 1;
  long long source = 0;
  std::string table;  // also write the closing table here
  bool compute = true;
  std::vector<long long> updates;
  int update_reps = 5;
  std::vector<double> budgets{-1.0};
  std::vector<long long> repair_deltas{0};
  bool verbose = false;  // one line per update batch
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t end = std::min(text.find(',', begin), text.size());
    if (end > begin) parts.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

std::vector<long long> split_numbers(const std::string& text) {
  std::vector<long long> values;
  for (const auto& part : split(text)) values.push_back(std::stoll(part));
  return values;
}

/// "g=8,16 b=2 d=25,50 / g=4 d=3000": the union of the cartesian products of each part.
std::vector<config_t> parse_sweep(const std::string& text) {
  std::vector<config_t> configs;
  size_t begin = 0;
  while (begin < text.size()) {
    const size_t end = std::min(text.find('/', begin), text.size());
    std::vector<long long> g{0}, b{0}, d{0};
    size_t pos = begin;
    while (pos < end) {
      const size_t stop = std::min(text.find(' ', pos), end);
      const std::string token = text.substr(pos, stop - pos);
      if (token.size() > 2 && token[1] == '=') {
        const auto values = split_numbers(token.substr(2));
        if (token[0] == 'g') g = values;
        else if (token[0] == 'b') b = values;
        else if (token[0] == 'd') d = values;
      }
      pos = stop + 1;
    }
    for (long long gv : g)
      for (long long bv : b)
        for (long long dv : d) configs.push_back({gv, bv, dv});
    begin = end + 1;
  }
  return configs;
}

options_t parse(int argc, char** argv) {
  options_t o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const std::string value = argv[i + 1];
    if (key == "--graphs") o.graphs = split(value);
    else if (key == "--types") o.types = split(value);
    else if (key == "--sweep") o.configs = parse_sweep(value);
    else if (key == "--reps") o.reps = std::stoi(value);
    else if (key == "--weights") o.num_weights = std::stoi(value);
    else if (key == "--source") o.source = std::stoll(value);
    else if (key == "--table") o.table = value;
    else if (key == "--compute") o.compute = value != "0";
    else if (key == "--updates") o.updates = split_numbers(value);
    else if (key == "--update-reps") o.update_reps = std::stoi(value);
    else if (key == "--verbose") o.verbose = value != "0";
    else if (key == "--repair-deltas") o.repair_deltas = split_numbers(value);
    else if (key == "--budgets") {
      o.budgets.clear();
      for (const auto& part : split(value)) o.budgets.push_back(std::stod(part));
    } else {
      std::fprintf(stderr, "sssp_gpu_bench: unknown option %s\n", key.c_str());
      std::exit(2);
    }
  }
  return o;
}

bench::edge_list_t make_graph(const std::string& name) {
  if (name.rfind("rmat", 0) == 0) return bench::rmat(std::stoi(name.substr(4)), 16, 1);
  if (name.rfind("grid", 0) == 0) {
    const std::string shape = name.substr(4);
    const size_t x = shape.find('x');
    const long long rows = std::stoll(shape.substr(0, x));
    const long long cols = x == std::string::npos ? rows : std::stoll(shape.substr(x + 1));
    return bench::grid(rows, cols, 1);
  }
  std::fprintf(stderr, "sssp_gpu_bench: unknown graph %s (use rmat<scale> or grid<side>)\n",
               name.c_str());
  std::exit(2);
}

/// Device-to-device copy rate, counting bytes read plus bytes written (the usual "copy" ceiling).
double copy_bandwidth_gbs() {
  const size_t bytes = size_t{1} << 31;
  device_buffer<char> a(bytes), b(bytes);
  a.fill_bytes(1);
  cudaEvent_t start, stop;
  DYNG_CUDA_CHECK(cudaEventCreate(&start));
  DYNG_CUDA_CHECK(cudaEventCreate(&stop));
  DYNG_CUDA_CHECK(cudaMemcpy(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice));
  DYNG_CUDA_CHECK(cudaEventRecord(start));
  const int copies = 10;
  for (int i = 0; i < copies; ++i) {
    DYNG_CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice));
  }
  DYNG_CUDA_CHECK(cudaEventRecord(stop));
  DYNG_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  DYNG_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  DYNG_CUDA_CHECK(cudaEventDestroy(start));
  DYNG_CUDA_CHECK(cudaEventDestroy(stop));
  return 2.0 * bytes * copies / (ms * 1e-3) / 1e9;
}

template <class vid_t, class eid_t>
struct device_direction_t {
  device_buffer<eid_t> row_begin, row_end;
  device_buffer<vid_t> col;
  device_buffer<int32_t> weights;
  dyng::sssp::cuda::device_adjacency_t<vid_t, eid_t> view;

  device_direction_t(const bench::slotted_t<vid_t, eid_t>& s, int64_t n)
      : row_begin(n), row_end(n), col(s.col.size()), weights(s.weights.size()) {
    row_begin.copy_from_host(s.row_begin.data(), n);
    row_end.copy_from_host(s.row_end.data(), n);
    col.copy_from_host(s.col.data(), s.col.size());
    weights.copy_from_host(s.weights.data(), s.weights.size());
    view.num_vertices = static_cast<vid_t>(n);
    view.num_weights = s.num_weights;
    view.row_begin = row_begin.data();
    view.row_end = row_end.data();
    view.col = col.data();
    view.weights = weights.data();
  }
};

/// Mismatches between the device result and the reference (prints the first few).
template <class vid_t>
long long count_mismatches(const bench::reference_t& ref, const std::vector<int64_t>& dist,
                           const std::vector<vid_t>& parent) {
  long long bad = 0;
  for (size_t v = 0; v < dist.size(); ++v) {
    if (dist[v] != ref.dist[v] || static_cast<int64_t>(parent[v]) != ref.parent[v]) {
      if (bad < 3) {
        std::fprintf(stderr, "  mismatch at %zu: dist %lld (want %lld), parent %lld (want %lld)\n",
                     v, static_cast<long long>(dist[v]), static_cast<long long>(ref.dist[v]),
                     static_cast<long long>(parent[v]), static_cast<long long>(ref.parent[v]));
      }
      ++bad;
    }
  }
  return bad;
}

struct row_t {
  std::string text;
  bool ok = true;
};

/// Times of the --reps runs after a warm-up, all of them checked; stats of the last run; the
/// median time of the parent pass alone (canonical_parents on the final distances).
struct measurement_t {
  std::vector<float> times;
  float parents_ms = 0;
  dyng::sssp::stats_t stats;
  long long mismatches = 0;
};

template <class vid_t, class eid_t>
struct bench_graph_t {
  const bench::edge_list_t& g;
  const bench::reference_t& ref;
  device_direction_t<vid_t, eid_t> out, in;
  device_buffer<int64_t> dist;
  device_buffer<vid_t> parents;
};

template <class vid_t, class eid_t>
measurement_t measure(bench_graph_t<vid_t, eid_t>& b, const options_t& o, const config_t& c) {
  const int64_t n = b.g.n;
  dyng::sssp::cuda::tuning_t tuning;
  tuning.group_size = static_cast<int>(c.group);
  tuning.blocks_per_sm = static_cast<int>(c.bps);
  std::vector<int64_t> host_dist(n);
  std::vector<vid_t> host_parents(n);
  cudaEvent_t start, stop;
  DYNG_CUDA_CHECK(cudaEventCreate(&start));
  DYNG_CUDA_CHECK(cudaEventCreate(&stop));
  measurement_t result;
  try {
    for (int rep = -1; rep < o.reps; ++rep) {
      b.dist.fill_bytes(0xA5);
      b.parents.fill_bytes(0xA5);
      DYNG_CUDA_CHECK(cudaEventRecord(start));
      dyng::sssp::cuda::compute<vid_t, eid_t>(b.out.view, b.in.view, static_cast<vid_t>(o.source),
                                              o.num_weights - 1, c.delta, nullptr, b.dist.data(),
                                              b.parents.data(), result.stats, tuning);
      DYNG_CUDA_CHECK(cudaEventRecord(stop));
      DYNG_CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      DYNG_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (rep >= 0) result.times.push_back(ms);
      b.dist.copy_to_host(host_dist.data(), n);
      b.parents.copy_to_host(host_parents.data(), n);
      result.mismatches += count_mismatches(b.ref, host_dist, host_parents);
    }
    std::vector<float> parent_times;
    for (int rep = 0; rep < o.reps; ++rep) {
      DYNG_CUDA_CHECK(cudaEventRecord(start));
      dyng::sssp::cuda::canonical_parents<vid_t, eid_t>(b.in.view, static_cast<vid_t>(o.source),
                                                        o.num_weights - 1, b.dist.data(), nullptr,
                                                        b.parents.data());
      DYNG_CUDA_CHECK(cudaEventRecord(stop));
      DYNG_CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      DYNG_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      parent_times.push_back(ms);
    }
    std::sort(parent_times.begin(), parent_times.end());
    if (!parent_times.empty()) result.parents_ms = parent_times[parent_times.size() / 2];
  } catch (const std::exception& e) {
    // One failing configuration must not hide the numbers of the others.
    std::fprintf(stderr, "  %s\n", e.what());
    result.mismatches = std::max(result.mismatches, 1LL);
  }
  DYNG_CUDA_CHECK(cudaEventDestroy(start));
  DYNG_CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(result.times.begin(), result.times.end());
  return result;
}

template <class vid_t, class eid_t>
void run_graph(const bench::edge_list_t& g, const bench::reference_t& ref, const options_t& o,
               const std::string& type, double copy_gbs, std::vector<row_t>& rows) {
  const int64_t n = g.n;
  const int64_t m = static_cast<int64_t>(g.src.size());
  const int objective = o.num_weights - 1;
  bench_graph_t<vid_t, eid_t> b{
      g,
      ref,
      device_direction_t<vid_t, eid_t>(
          bench::build_slotted<vid_t, eid_t>(g, false, o.num_weights, objective), n),
      device_direction_t<vid_t, eid_t>(
          bench::build_slotted<vid_t, eid_t>(g, true, o.num_weights, objective), n),
      device_buffer<int64_t>(n),
      device_buffer<vid_t>(n)};
  // Minimum traffic: both directions' rows, columns and weights once, distances written by the
  // search and read by the parent pass, parents written.
  const double bytes = 2.0 * (2.0 * n * sizeof(eid_t) + m * (sizeof(vid_t) + 4.0)) + 16.0 * n +
                       1.0 * sizeof(vid_t) * n;
  for (const config_t& c : o.configs) {
    const measurement_t r = measure(b, o, c);
    const double median = r.times.empty() ? 0.0 : r.times[r.times.size() / 2];
    const double gbs = bytes / (median * 1e-3) / 1e9;
    char line[512];
    std::snprintf(line, sizeof line,
                  "%-9s %-7s %9lld %10lld %3lld %3lld %6lld | %8.3f %8.3f %8.3f %7.3f | "
                  "%6.2f %7.1f %5.1f%% | %6lld %5lld %5.2f %s",
                  g.name.c_str(), type.c_str(), static_cast<long long>(n),
                  static_cast<long long>(m), c.group, c.bps, c.delta, median,
                  r.times.empty() ? 0.0 : r.times.front(), r.times.empty() ? 0.0 : r.times.back(),
                  r.parents_ms, m / (median * 1e-3) / 1e9, gbs, 100.0 * gbs / copy_gbs,
                  static_cast<long long>(r.stats.iterations),
                  static_cast<long long>(r.stats.epochs),
                  static_cast<double>(r.stats.frontier_visits) / std::max<int64_t>(1, m),
                  r.mismatches == 0 ? "ok" : "FAIL");
    std::printf("%s\n", line);
    std::fflush(stdout);
    rows.push_back({line, r.mismatches == 0});
  }
}

const char* k_header =
    "graph     type            n          m   G bps  delta |   median      min      max parents | "
    " GTEPS    GB/s  copy | rounds epoch relx/m check";

}  // namespace

int main(int argc, char** argv) {
  const options_t o = parse(argc, argv);
  try {
    const double copy_gbs = copy_bandwidth_gbs();
    std::printf("device-to-device copy: %.0f GB/s (read + write)\n", copy_gbs);
    std::vector<row_t> rows;
    std::vector<bench::update_row_t> update_rows;
    std::vector<bench::update_config_t> update_configs;
    for (const double budget : o.budgets) {
      for (const long long delta : o.repair_deltas) update_configs.push_back({budget, delta});
    }
    for (const auto& name : o.graphs) {
      std::printf("generating %s ...\n", name.c_str());
      std::fflush(stdout);
      const bench::edge_list_t g = make_graph(name);
      std::printf("%s: n = %lld, m = %zu\n", name.c_str(), static_cast<long long>(g.n),
                  g.src.size());
      if (o.compute) {
        std::printf("CPU Dijkstra ...\n");
        std::fflush(stdout);
        const bench::reference_t ref = bench::dijkstra(g, o.source);
        std::printf("%s\n", k_header);
        for (const auto& type : o.types) {
          if (type == "i32i32") run_graph<int32_t, int32_t>(g, ref, o, type, copy_gbs, rows);
          else if (type == "i32i64") run_graph<int32_t, int64_t>(g, ref, o, type, copy_gbs, rows);
          else if (type == "i64i64") run_graph<int64_t, int64_t>(g, ref, o, type, copy_gbs, rows);
          else std::fprintf(stderr, "sssp_gpu_bench: unknown type %s\n", type.c_str());
        }
      }
      if (!o.updates.empty()) {
        std::printf("%s\n", bench::k_update_header);
        std::fflush(stdout);
        for (const auto& type : o.types) {
          if (type == "i32i32") {
            bench::run_updates<int32_t, int32_t>(g, type, o.updates, update_configs, o.update_reps,
                                                 o.source, o.verbose, update_rows);
          } else if (type == "i32i64") {
            bench::run_updates<int32_t, int64_t>(g, type, o.updates, update_configs, o.update_reps,
                                                 o.source, o.verbose, update_rows);
          } else if (type == "i64i64") {
            bench::run_updates<int64_t, int64_t>(g, type, o.updates, update_configs, o.update_reps,
                                                 o.source, o.verbose, update_rows);
          }
        }
      }
    }
    bool ok = true;
    if (!rows.empty()) {
      std::printf("\n%s\n", k_header);
      for (const auto& row : rows) {
        std::printf("%s\n", row.text.c_str());
        ok = ok && row.ok;
      }
    }
    if (!update_rows.empty()) {
      std::printf("\n%s\n", bench::k_update_header);
      for (const auto& row : update_rows) {
        std::printf("%s\n", row.text.c_str());
        ok = ok && row.ok;
      }
    }
    if (!o.table.empty()) {
      std::ofstream file(o.table);
      file << k_header << "\n";
      for (const auto& row : rows) file << row.text << "\n";
      file << bench::k_update_header << "\n";
      for (const auto& row : update_rows) file << row.text << "\n";
    }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sssp_gpu_bench: %s\n", e.what());
    return 1;
  }
}
