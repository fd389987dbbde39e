// The kernel of device_graph_t::stage() (device_batch.cu): one pass over a batch in the
// producer's memory that converts it to the graph's types and finds what every check of the
// batch reads (device_batch.hpp says which).
#pragma once

#include <cstdint>

#include "dyng/graph/cuda/device_batch.hpp"

namespace dyng::cuda::detail {

inline constexpr unsigned long long k_no_index = ~0ull;

/// What the kernel finds, in device memory; indices are k_no_index when nothing was found.
struct stage_facts_t {
  unsigned long long above_int64[conversion_faults_t::k_arrays];
  unsigned long long negative[conversion_faults_t::k_arrays];
  unsigned long long too_wide[conversion_faults_t::k_arrays];
  unsigned long long weight_flat;  ///< row * K + column of the first weight outside int32
  unsigned long long bad[::dyng::detail::k_id_arrays];  ///< batch_id_facts_t's order
  unsigned long long first_self_loop;
  unsigned long long self_loops;
  long long max_insert_id;
  long long max_delete_id;
  unsigned long long below_one[64];
};

/// Element (r, c) of `a` widened to int64; `above` is set for an unsigned 64-bit value past int64
/// (then the result is its bit pattern).
__device__ inline int64_t load_int(const device_int_array_t& a, int64_t r, int64_t c, bool& above) {
  const int64_t e = r * a.row_stride + c * a.col_stride;
  above = false;
  switch (a.bits) {
    case 8:
      return a.is_signed ? static_cast<int64_t>(static_cast<const int8_t*>(a.data)[e])
                         : static_cast<int64_t>(static_cast<const uint8_t*>(a.data)[e]);
    case 16:
      return a.is_signed ? static_cast<int64_t>(static_cast<const int16_t*>(a.data)[e])
                         : static_cast<int64_t>(static_cast<const uint16_t*>(a.data)[e]);
    case 32:
      return a.is_signed ? static_cast<int64_t>(static_cast<const int32_t*>(a.data)[e])
                         : static_cast<int64_t>(static_cast<const uint32_t*>(a.data)[e]);
    default: {
      if (a.is_signed) return static_cast<const int64_t*>(a.data)[e];
      const uint64_t u = static_cast<const uint64_t*>(a.data)[e];
      above = u > static_cast<uint64_t>(INT64_MAX);
      return static_cast<int64_t>(u);
    }
  }
}

__device__ inline long long warp_max(long long x) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    const long long y = __shfl_down_sync(0xffffffffu, x, offset);
    x = y > x ? y : x;
  }
  return x;
}

__device__ inline unsigned long long warp_add(unsigned long long x) {
  for (int offset = 16; offset > 0; offset >>= 1) x += __shfl_down_sync(0xffffffffu, x, offset);
  return x;
}

/// The graph's side of a stage: its vertex count, the semantics the facts depend on, and the
/// largest id its type holds.
struct stage_rules_t {
  int64_t n;
  int64_t id_max;
  bool growth;
  bool drop_self_loops;
};

/// One id: converted into out[i] (wrapped when refused), its conversion faults noted for array
/// `a`; returns the converted value.
template <class vid_t>
__device__ int64_t stage_id(const device_int_array_t& in, int64_t i, int a, int64_t id_max,
                            vid_t* out, stage_facts_t* facts) {
  bool above = false;
  const int64_t id = load_int(in, i, 0, above);
  if (above) {
    atomicMin(&facts->above_int64[a], static_cast<unsigned long long>(i));
  } else if (id < 0) {
    atomicMin(&facts->negative[a], static_cast<unsigned long long>(i));
  } else if (id > id_max) {
    atomicMin(&facts->too_wide[a], static_cast<unsigned long long>(i));
  }
  out[i] = static_cast<vid_t>(id);
  return above ? -1 : id;
}

/// Thread i stages insertion i and deletion i. The loop runs the same number of rounds in every
/// lane of a warp, so that the warp's sums and maxima can be reduced before one atomic each.
template <class vid_t>
__global__ void stage_kernel(device_batch_arrays_t in, stage_rules_t rules, vid_t* ins_src,
                             vid_t* ins_dst, int32_t* ins_w, vid_t* del_src, vid_t* del_dst,
                             stage_facts_t* facts) {
  using ::dyng::detail::k_delete_dst;
  using ::dyng::detail::k_delete_src;
  using ::dyng::detail::k_insert_dst;
  using ::dyng::detail::k_insert_src;
  using cf = conversion_faults_t;
  const int64_t ni = in.insert_src.rows, nd = in.delete_src.rows;
  const int64_t count = ni > nd ? ni : nd;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int k = in.num_weights;
  auto refused = [&](int64_t id) { return id < 0 || (id >= rules.n && !rules.growth); };
  long long max_insert = -1, max_delete = -1;
  unsigned long long loops = 0;
  for (int64_t base = static_cast<int64_t>(blockIdx.x) * blockDim.x; base < count; base += stride) {
    const int64_t i = base + threadIdx.x;
    if (i < ni) {
      const int64_t u = stage_id(in.insert_src, i, cf::k_insert_src, rules.id_max, ins_src, facts);
      const int64_t v = stage_id(in.insert_dst, i, cf::k_insert_dst, rules.id_max, ins_dst, facts);
      if (refused(u)) atomicMin(&facts->bad[k_insert_src], static_cast<unsigned long long>(i));
      if (refused(v)) atomicMin(&facts->bad[k_insert_dst], static_cast<unsigned long long>(i));
      if (u == v) {
        ++loops;
        atomicMin(&facts->first_self_loop, static_cast<unsigned long long>(i));
      }
      if (u != v || !rules.drop_self_loops) {
        const long long larger = u > v ? u : v;
        max_insert = larger > max_insert ? larger : max_insert;
      }
      for (int c = 0; c < k; ++c) {
        bool above = false;
        const int64_t w = load_int(in.insert_weights, i, c, above);
        const unsigned long long flat = static_cast<unsigned long long>(i) * k + c;
        if (above || w < INT32_MIN || w > INT32_MAX) atomicMin(&facts->weight_flat, flat);
        if (!above && w < 1) atomicMin(&facts->below_one[c], static_cast<unsigned long long>(i));
        ins_w[flat] = static_cast<int32_t>(w);
      }
    }
    if (i < nd) {
      const int64_t u = stage_id(in.delete_src, i, cf::k_delete_src, rules.id_max, del_src, facts);
      const int64_t v = stage_id(in.delete_dst, i, cf::k_delete_dst, rules.id_max, del_dst, facts);
      if (refused(u)) atomicMin(&facts->bad[k_delete_src], static_cast<unsigned long long>(i));
      if (refused(v)) atomicMin(&facts->bad[k_delete_dst], static_cast<unsigned long long>(i));
      const long long larger = u > v ? u : v;
      max_delete = larger > max_delete ? larger : max_delete;
    }
  }
  max_insert = warp_max(max_insert);
  max_delete = warp_max(max_delete);
  loops = warp_add(loops);
  if ((threadIdx.x & 31u) == 0) {
    if (max_insert >= 0) atomicMax(&facts->max_insert_id, max_insert);
    if (max_delete >= 0) atomicMax(&facts->max_delete_id, max_delete);
    if (loops > 0) atomicAdd(&facts->self_loops, loops);
  }
}

}  // namespace dyng::cuda::detail
