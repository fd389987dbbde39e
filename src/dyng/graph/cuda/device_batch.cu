// device_graph_t::stage(): a batch in device memory converted and checked where it lies
// (device_batch.hpp). One kernel (stage_kernel.cuh) and one copy back of its facts; only when
// the facts name a refused entry are the values the messages need fetched one by one.
#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_scope.hpp"
#include "dyng/backend/cuda/launch_shape.cuh"
#include "dyng/core/errors.hpp"
#include "dyng/core/graph_types.hpp"
#include "dyng/graph/cuda/device_batch.hpp"
#include "dyng/graph/cuda/device_graph.hpp"
#include "dyng/graph/cuda/stage_kernel.cuh"

namespace dyng::cuda {
namespace {

constexpr int k_stage_threads = 256;

size_t aligned_end(size_t at, size_t bytes) { return ((at + 7) & ~size_t{7}) + bytes; }
size_t aligned(size_t at) { return (at + 7) & ~size_t{7}; }

/// One element of a producer's array, widened (see load_int).
value_fault_t fetch_element(const device_int_array_t& a, int64_t r, int64_t c, void* stream) {
  const int64_t e = r * a.row_stride + c * a.col_stride;
  const size_t size = static_cast<size_t>(a.bits / 8);
  unsigned char raw[8] = {};
  copy_to_host(raw, static_cast<const unsigned char*>(a.data) + e * static_cast<int64_t>(size),
               size, stream);
  synchronize(stream);
  value_fault_t f;
  f.index = r;
  auto as = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, raw, sizeof v);
    return v;
  };
  switch (a.bits) {
    case 8: f.value = a.is_signed ? as(int8_t{}) : as(uint8_t{}); break;
    case 16: f.value = a.is_signed ? as(int16_t{}) : as(uint16_t{}); break;
    case 32: f.value = a.is_signed ? as(int32_t{}) : as(uint32_t{}); break;
    default: {
      f.value = as(int64_t{});
      f.above_int64 = !a.is_signed && as(uint64_t{}) > static_cast<uint64_t>(INT64_MAX);
    }
  }
  return f;
}

template <class T>
int64_t fetch_staged(const T* at, void* stream) {
  T v{};
  copy_to_host(&v, at, sizeof v, stream);
  synchronize(stream);
  return static_cast<int64_t>(v);
}

void check_array(const device_int_array_t& a, const char* name, int64_t cols) {
  const bool bits_ok = a.bits == 8 || a.bits == 16 || a.bits == 32 || a.bits == 64;
  if (!bits_ok || a.rows < 0 || a.cols != cols || (a.rows > 0 && a.data == nullptr)) {
    throw internal_error(std::string("Graph.apply(): the device array ") + name +
                         " is described inconsistently; this is a bug in dyng");
  }
}

/// Throws unless the device batch's arrays are described consistently and its shapes are those
/// of a batch for a graph with `props`.
void check_batch_arrays(const device_batch_arrays_t& in, const graph_properties_t& props) {
  const int k = in.num_weights;
  const int64_t ni = in.insert_src.rows, nd = in.delete_src.rows;
  check_array(in.insert_src, "insert_src", 1);
  check_array(in.insert_dst, "insert_dst", 1);
  check_array(in.delete_src, "delete_src", 1);
  check_array(in.delete_dst, "delete_dst", 1);
  if (k > 64 || k < 0) {
    throw internal_error("Graph.apply(): a device batch with " + std::to_string(k) +
                         " weight columns reached staging; this is a bug in dyng");
  }
  if (k > 0 && ni > 0) check_array(in.insert_weights, "insert_weights", k);
  ::dyng::detail::check_batch_shapes(ni, in.insert_dst.rows, nd, in.delete_dst.rows, k,
                                     k > 0 ? in.insert_weights.rows * k : 0, props);
}

/// Places the staged arrays of `ni` insertions (k weights each) and `nd` deletions in one blob,
/// 8-byte aligned; returns where the facts go, at the blob's end, so that one allocation holds
/// the whole stage.
template <class vid_t>
size_t lay_out_stage(staged_batch_t<vid_t>& st, int64_t ni, int64_t nd, int k) {
  size_t end = 0;
  st.at_insert_src = aligned(end);
  end = aligned_end(end, static_cast<size_t>(ni) * sizeof(vid_t));
  st.at_insert_dst = aligned(end);
  end = aligned_end(end, static_cast<size_t>(ni) * sizeof(vid_t));
  st.at_insert_weights = aligned(end);
  end = aligned_end(end, static_cast<size_t>(ni) * static_cast<size_t>(k) * sizeof(int32_t));
  st.at_delete_src = aligned(end);
  end = aligned_end(end, static_cast<size_t>(nd) * sizeof(vid_t));
  st.at_delete_dst = aligned(end);
  end = aligned_end(end, static_cast<size_t>(nd) * sizeof(vid_t));
  return aligned(end);
}

/// Launches the stage kernel: converts and checks the producer's arrays into st's blob, its
/// facts into `facts_d`.
template <class vid_t>
void launch_stage(const device_batch_arrays_t& in, const detail::stage_rules_t& rules,
                  staged_batch_t<vid_t>& st, detail::stage_facts_t* facts_d, void* stream) {
  const int64_t ni = in.insert_src.rows, nd = in.delete_src.rows;
  unsigned char* base = st.blob.data();
  device_batch_arrays_t arrays = in;
  if (in.num_weights == 0 || ni == 0) arrays.num_weights = 0;
  const int64_t blocks64 = (std::max(ni, nd) + k_stage_threads - 1) / k_stage_threads;
  const auto blocks = static_cast<unsigned>(
      std::min<int64_t>(blocks64, static_cast<int64_t>(multiprocessor_count()) * 8));
  detail::stage_kernel<vid_t><<<blocks, k_stage_threads, 0, as_stream(stream)>>>(
      arrays, rules, reinterpret_cast<vid_t*>(base + st.at_insert_src),
      reinterpret_cast<vid_t*>(base + st.at_insert_dst),
      reinterpret_cast<int32_t*>(base + st.at_insert_weights),
      reinterpret_cast<vid_t*>(base + st.at_delete_src),
      reinterpret_cast<vid_t*>(base + st.at_delete_dst), facts_d);
  DYNG_CUDA_CHECK(cudaGetLastError());
}

/// The conversion's faults, with the producer's values (fetched one by one, only for a fault).
template <class vid_t>
void read_conversion_faults(const device_batch_arrays_t& in, const detail::stage_facts_t& facts,
                            void* stream, staged_batch_t<vid_t>& st) {
  using cf = conversion_faults_t;
  const int k = in.num_weights;
  const device_int_array_t* id_arrays[cf::k_arrays] = {&in.insert_src, &in.insert_dst,
                                                       &in.delete_src, &in.delete_dst};
  auto fault = [&](unsigned long long index, int a) {
    if (index == detail::k_no_index) return value_fault_t{};
    return fetch_element(*id_arrays[a], static_cast<int64_t>(index), 0, stream);
  };
  for (int a = 0; a < cf::k_arrays; ++a) {
    st.conversion.above_int64[a] = fault(facts.above_int64[a], a);
    st.conversion.negative[a] = fault(facts.negative[a], a);
    st.conversion.too_wide[a] = fault(facts.too_wide[a], a);
  }
  if (facts.weight_flat != detail::k_no_index) {
    const auto row = static_cast<int64_t>(facts.weight_flat / static_cast<unsigned long long>(k));
    const auto col = static_cast<int64_t>(facts.weight_flat % static_cast<unsigned long long>(k));
    st.conversion.weight = fetch_element(in.insert_weights, row, col, stream);
    st.conversion.weight_column = col;
  }
}

/// The id checks' facts, with the staged values (fetched one by one, only for a fault).
template <class vid_t>
void read_id_facts(const detail::stage_facts_t& facts, void* stream, staged_batch_t<vid_t>& st) {
  using ::dyng::detail::k_id_arrays;
  const int k = st.num_weights;
  const vid_t* staged_ids[k_id_arrays] = {st.delete_src(), st.delete_dst(), st.insert_src(),
                                          st.insert_dst()};
  for (int a = 0; a < k_id_arrays; ++a) {
    if (facts.bad[a] == detail::k_no_index) continue;
    const auto i = static_cast<int64_t>(facts.bad[a]);
    st.ids.bad[a] = {i, fetch_staged(staged_ids[a] + i, stream)};
  }
  if (facts.first_self_loop != detail::k_no_index) {
    const auto i = static_cast<int64_t>(facts.first_self_loop);
    st.ids.first_self_loop = {i, fetch_staged(st.insert_src() + i, stream)};
  }
  st.ids.self_loops = static_cast<int64_t>(facts.self_loops);
  st.ids.max_insert_id = facts.max_insert_id;
  st.ids.max_delete_id = facts.max_delete_id;
  st.below_one.assign(static_cast<size_t>(k), {});
  for (int c = 0; c < k; ++c) {
    if (facts.below_one[c] == detail::k_no_index) continue;
    const auto i = static_cast<int64_t>(facts.below_one[c]);
    auto& f = st.below_one[static_cast<size_t>(c)];
    f.index = i;
    f.u = fetch_staged(st.insert_src() + i, stream);
    f.v = fetch_staged(st.insert_dst() + i, stream);
    f.weight = static_cast<int32_t>(fetch_staged(st.insert_weights() + i * k + c, stream));
  }
}

}  // namespace

template <class vid_t, class eid_t>
staged_batch_t<vid_t> device_graph_t<vid_t, eid_t>::stage(const device_batch_arrays_t& in) const {
  const int k = in.num_weights;
  const int64_t ni = in.insert_src.rows, nd = in.delete_src.rows;
  check_batch_arrays(in, props_);
  device_scope_t scope(device_);
  staged_batch_t<vid_t> st;
  st.device = device_;
  st.num_insertions = ni;
  st.num_deletions = nd;
  st.num_weights = k;
  st.checked_version = version_;
  const size_t at_facts = lay_out_stage(st, ni, nd, k);
  st.blob = device_buffer<unsigned char>(at_facts + sizeof(detail::stage_facts_t), stream_);

  detail::stage_facts_t facts;
  std::memset(&facts, 0xFF, sizeof facts);  // every index: none
  facts.self_loops = 0;
  facts.max_insert_id = -1;
  facts.max_delete_id = -1;
  auto* facts_d = reinterpret_cast<detail::stage_facts_t*>(st.blob.data() + at_facts);
  copy_to_device(facts_d, &facts, sizeof facts, stream_);
  if (std::max(ni, nd) > 0) {
    const detail::stage_rules_t rules{static_cast<int64_t>(num_vertices_),
                                      static_cast<int64_t>(std::numeric_limits<vid_t>::max()),
                                      props_.semantics.allow_vertex_growth,
                                      props_.semantics.on_self_loop == on_self_loop_t::drop};
    launch_stage(in, rules, st, facts_d, stream_);
  }
  copy_to_host(&facts, facts_d, sizeof facts, stream_);
  synchronize(stream_);
  read_conversion_faults(in, facts, stream_, st);
  read_id_facts(facts, stream_, st);
  return st;
}

#define DYNG_INSTANTIATE_DEVICE_STAGE(V, E) \
  template staged_batch_t<V> device_graph_t<V, E>::stage(const device_batch_arrays_t&) const;
DYNG_FOR_EACH_GRAPH_TYPES(DYNG_INSTANTIATE_DEVICE_STAGE)
#undef DYNG_INSTANTIATE_DEVICE_STAGE

}  // namespace dyng::cuda
