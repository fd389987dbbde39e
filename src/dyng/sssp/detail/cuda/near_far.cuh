// Near-far delta-stepping in one persistent cooperative kernel (after A. Davidson, S. Baxter,
// M. Garland, J. Owens, "Work-efficient parallel GPU methods for single-source shortest paths",
// IPDPS 2014; bucket width as in delta-stepping, U. Meyer and P. Sanders, J. Algorithms 2003).
//
// Input: a slotted CSR (device pointers) with weights >= 1; `dist` and two stamp arrays of n
// entries; four item queues of `capacity` entries. Output: final distances in `dist`.
//
// The search keeps a bound B. A round relaxes the near queue: a vertex u whose distance a lane
// lowers to below B goes into the next near queue, otherwise into the far pile. When the near
// queue runs dry the far pile is split against B' = max(B, smallest far distance) + delta:
// vertices below B were already relaxed at their current distance and are dropped, those below
// B' form the next near queue, the rest stay far. Distances are int64 stored as unsigned and
// lowered with atomicMin, so every relaxation order converges to the same fixed point.
//
// Queue entries are deduplicated by claiming a stamp (the round for near, the epoch for far) with
// atomicExch, issued together with the atomicMin rather than after it: a lane that saw
// nd < dist[u] claims u whether or not its own atomicMin wins. If it loses, the winner lowered u
// in the same round and finds the stamp taken, so the claimer's entry is the one that makes u be
// relaxed again, at its current distance, next round. Nothing waits on the atomicMin, which the
// compiler turns into a fire-and-forget reduction.
//
// Latency, not bandwidth, bounds the grid case: ~5000 rounds, each a chain of dependent memory
// accesses. Hence one kernel launch with grid.sync() between rounds (no launch or host round trip
// per round), items that carry their row range (device_common.cuh), and the first item of each
// group loaded before the round's item count is known. Queue counters rotate over three slots so
// that resetting the slot two rounds ahead needs no extra barrier.
//
// Seeded mode (update's repair, k_seeded = true) starts from the distances it is given instead of
// from the source: the caller has filled far pile 0 with the lowered vertices (their far stamps
// claimed with epoch 0), far_min[0] with their smallest distance and every counter, and hands
// over stamps that are -1 except for vertices it listed (repair_cut.cuh does this), so the first
// round splits the pile against a bound of 0. Every vertex whose stamp it claims for the first
// time is listed too (touched.cuh): the update cleans exactly those afterwards. It does nothing
// when *gate is set (the seeding kernel gave up), and it stops once more than `work_budget`
// units of work are done, counting the work the caller left in control->work: each thread
// flushes its relaxation count into control->work now and then, thread 0 compares the total with
// the budget and writes its decision into stop[(round + 1) & 1], a slot nobody reads during this
// round, and every thread reads stop[round & 1] after the barrier, so all of them leave in the
// same round.
//
// Joint mode (k_joint = true, mosp) runs num_objectives searches from the same source as one:
// an item is a (vertex, objective) pair (device_common.cuh), objective o reads weight column
// objective + o and owns entries [o*n, (o+1)*n) of dist and of both stamp arrays. The searches
// share the rounds and the bound, so K trees cost one kernel's barriers instead of K kernels'.
#pragma once

#include <cooperative_groups.h>

#include "dyng/graph/adjacency_view.hpp"
#include "dyng/sssp/detail/cuda/device_common.cuh"
#include "dyng/sssp/detail/cuda/touched.cuh"

namespace dyng::sssp::detail::cuda {

template <class vid_t, class eid_t>
struct near_far_params_t {
  adjacency_view_t<vid_t, eid_t> out;
  int objective = 0;
  /// Joint mode: the searches run together (columns objective .. objective + num_objectives-1).
  int num_objectives = 1;
  vid_t source = 0;
  dist_t delta = 1;
  long long max_rounds = 0;
  dist_t* dist = nullptr;
  int* near_stamp = nullptr;
  int* far_stamp = nullptr;
  item_t* near_queue[2] = {nullptr, nullptr};
  item_t* far_queue[2] = {nullptr, nullptr};
  unsigned long long capacity = 0;
  control_t* control = nullptr;
  /// Seeded mode: relaxations allowed before the search gives up (k_status_budget).
  unsigned long long work_budget = 0;
  /// Seeded mode: where the vertices whose stamps it claims are listed (touched.cuh); the
  /// stamps are -1 on entry except for vertices already listed.
  touched_list_t<vid_t> touched{};
  /// Seeded mode: the search does nothing when *gate != 0 (the kernel before it gave up), so
  /// that the host queues it without waiting for that kernel's verdict.
  const int* gate = nullptr;
};

/// The queue a round appends to.
struct sink_t {
  item_t* items;
  unsigned long long* count;
};

/// Slots one work item covers: 32 steps of a G-lane group, so items take similar time.
template <int G>
__host__ __device__ constexpr long long chunk_edges() {
  return 32LL * G;
}

/// One round over the near queue. Groups of G lanes take items in a static stride; all 32
/// lanes of a warp stay in the loop until every group of the warp is done, so the warp-wide
/// ballots inside are always reached by the whole warp. `first_item` is the group's item at
/// its first index, loaded by the caller ahead of `in_count`.
template <int G, bool k_joint, bool k_seeded, class vid_t, class eid_t>
__device__ void relax_round(const near_far_params_t<vid_t, eid_t>& p, const item_t* in_queue,
                            item_t first_item, unsigned long long in_count, sink_t near_sink,
                            sink_t far_sink, dist_t* far_min, dist_t bound, int near_tag,
                            int far_tag, unsigned long long& relaxations) {
  constexpr long long chunk = chunk_edges<G>();
  const unsigned lane = threadIdx.x & 31u;
  const unsigned glane = lane % G;
  const unsigned gfirst = lane - glane;
  const unsigned long long num_groups = static_cast<unsigned long long>(gridDim.x) * blockDim.x / G;
  unsigned long long next =
      (static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x) / G;
  const long long stride = p.out.num_weights;
  const int32_t* weights = p.out.weights + p.objective;
  int* status = &p.control->status;
  const long long n = p.out.num_vertices;

  // Group-uniform state: the slot range [base, end) of vertex v being relaxed, in the offset
  // type (32-bit slots need half the registers, and registers bound this kernel's occupancy).
  // Joint mode adds the item's objective and where its distances start; otherwise both stay 0,
  // and the compiler folds them away.
  int obj = 0;
  long long ofs = 0;
  bool have = false;
  bool prefetched = true;
  item_t item = first_item;
  dist_t du = 0;
  eid_t base = 0;
  eid_t end = 0;

  while (__any_sync(k_full_mask, have || next < in_count)) {
    // (1) An idle group takes its next item; the first item of a long row also yields the range
    // [rest, rest_end) to queue as chunk-sized items for the next round.
    long long rest = 0;
    long long rest_end = 0;
    unsigned long long v = 0;
    if (!have && next < in_count) {
      if (!prefetched) item = __ldcg(in_queue + next);
      prefetched = false;
      next += num_groups;
      v = item_vertex(item);
      base = static_cast<eid_t>(item_first(item));
      const long long length = item_length(item);
      if constexpr (k_joint) {
        obj = item_objective(item);
        ofs = static_cast<long long>(obj) * n;
      }
      du = __ldcg(p.dist + ofs + v);
      end = static_cast<eid_t>(base + (length < chunk ? length : chunk));
      if (length > chunk) {
        rest = end;
        rest_end = length == k_max_length ? static_cast<long long>(__ldg(p.out.row_end + v))
                                          : static_cast<long long>(base) + length;
      }
      have = base < end;
    }
    if (__any_sync(k_full_mask, rest_end > rest)) {
      const long long pieces = (rest_end - rest + chunk - 1) / chunk;
      unsigned long long first = 0;
      if (glane == 0 && pieces > 0) {
        first = atomicAdd(near_sink.count, static_cast<unsigned long long>(pieces));
      }
      first = __shfl_sync(k_full_mask, first, gfirst);
      for (long long j = glane; j < pieces; j += G) {
        const unsigned long long index = first + j;
        const long long from = rest + j * chunk;
        const long long to = from + chunk < rest_end ? from + chunk : rest_end;
        if (index < p.capacity) {
          near_sink.items[index] = make_item(from, to - from, v, obj);
        } else {
          atomicExch(status, k_status_overflow);
        }
      }
    }
    // (2) One slot per lane.
    bool near_push = false;
    bool far_push = false;
    item_t pushed = make_ulonglong2(0, 0);
    dist_t nd = 0;
    // end - base > glane rather than base + glane < end: no overflow at the offset type's limit.
    if (have && end - base > static_cast<eid_t>(glane)) {
      const eid_t slot = base + static_cast<eid_t>(glane);
      const vid_t u = __ldg(p.out.col + slot);
      const int32_t w = __ldg(weights + obj + static_cast<long long>(slot) * stride);
      nd = du + static_cast<dist_t>(static_cast<long long>(w));
      ++relaxations;
      if (nd < __ldcg(p.dist + ofs + u)) {
        atomicMin(p.dist + ofs + u, nd);  // result unused: compiled to a reduction nobody waits for
        const bool is_near = nd < bound;
        const int tag = is_near ? near_tag : far_tag;
        const int previous = atomicExch((is_near ? p.near_stamp : p.far_stamp) + ofs + u, tag);
        // Seeded: the first claim of either stamp in this update lists u for the final clean-up.
        if (k_seeded && previous == -1) {
          mark_touched(p.touched, static_cast<long long>(u), 0u, status, k_status_overflow);
        }
        const long long ub = __ldg(p.out.row_begin + u);
        const long long ue = __ldg(p.out.row_end + u);
        // A vertex without out-edges has nothing to relax: claimed, never queued.
        const bool queue = previous != tag && ue > ub;
        near_push = queue && is_near;
        far_push = queue && !is_near;
        pushed = make_item(ub, ue - ub, static_cast<unsigned long long>(u), obj);
      }
    }
    if (have) {
      if (end - base > G) {
        base += G;
      } else {
        have = false;
      }
    }
    // (3) Queue.
    warp_append(near_push, pushed, near_sink.items, near_sink.count, p.capacity, status,
                k_status_overflow);
    warp_append(far_push, pushed, far_sink.items, far_sink.count, p.capacity, status,
                k_status_overflow);
    if (far_push) atomicMin(far_min, nd);
  }
}

/// Splits the far pile against [old_bound, new_bound): one thread per item.
template <bool k_joint, class vid_t, class eid_t>
__device__ void filter_round(const near_far_params_t<vid_t, eid_t>& p, const item_t* far_in,
                             unsigned long long far_count, sink_t near_sink, sink_t far_sink,
                             dist_t* far_min_next, dist_t old_bound, dist_t new_bound, int near_tag,
                             int far_tag_next) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned long long warp =
      (static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned long long num_warps = static_cast<unsigned long long>(gridDim.x) * blockDim.x / 32;
  int* status = &p.control->status;
  for (unsigned long long first = warp * 32; first < far_count; first += num_warps * 32) {
    const unsigned long long i = first + lane;
    bool to_near = false;
    bool to_far = false;
    item_t item = make_ulonglong2(0, 0);
    dist_t d = 0;
    if (i < far_count) {
      item = __ldcg(far_in + i);
      const unsigned long long w =
          item_vertex(item) +
          (k_joint ? static_cast<unsigned long long>(item_objective(item)) * p.out.num_vertices
                   : 0ull);
      d = __ldcg(p.dist + w);
      if (d >= old_bound) {
        if (d < new_bound) {
          to_near = atomicExch(p.near_stamp + w, near_tag) != near_tag;
        } else {
          to_far = atomicExch(p.far_stamp + w, far_tag_next) != far_tag_next;
        }
      }
    }
    warp_append(to_near, item, near_sink.items, near_sink.count, p.capacity, status,
                k_status_overflow);
    warp_append(to_far, item, far_sink.items, far_sink.count, p.capacity, status,
                k_status_overflow);
    if (to_far) atomicMin(far_min_next, d);
  }
}

/// The whole search. Launch cooperatively with blocks of k_block_threads threads. Four blocks
/// per multiprocessor (64 registers) is what R-MAT needs to keep enough loads in flight.
template <int G, class vid_t, class eid_t, bool k_seeded = false, bool k_joint = false>
__global__ void __launch_bounds__(k_block_threads, 4)
    near_far_kernel(const near_far_params_t<vid_t, eid_t> p) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  const unsigned long long thread =
      static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned long long threads = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  const unsigned long long group = thread / G;
  control_t* control = p.control;
  const long long n = p.out.num_vertices;

  if constexpr (k_seeded) {
    // Written by an earlier kernel: every thread reads the same value and leaves together.
    if (__ldcg(p.gate) != 0) return;
  }
  if constexpr (!k_seeded) {
    const long long searches = k_joint ? p.num_objectives : 1;
    for (long long i = static_cast<long long>(thread); i < n * searches;
         i += static_cast<long long>(threads)) {
      p.dist[i] = (k_joint ? i % n : i) == static_cast<long long>(p.source) ? 0 : k_infinity;
      p.near_stamp[i] = -1;
      p.far_stamp[i] = -1;
    }
    if (thread == 0) {
      for (int k = 0; k < 3; ++k) {
        control->near_count[k] = 0;
        control->far_count[k] = 0;
        control->far_min[k] = k_infinity;
      }
      const long long b = p.out.row_begin[p.source];
      const long long e = p.out.row_end[p.source];
      control->near_count[0] = e > b ? static_cast<unsigned long long>(searches) : 0;
      control->relaxations = 0;
      control->status = k_status_ok;
      for (int o = 0; o < searches; ++o) {
        p.near_queue[0][o] = make_item(b, e - b, static_cast<unsigned long long>(p.source), o);
      }
    }
    grid.sync();
  } else {
    (void)n;
  }

  // Selected with ?: rather than indexed: a run-time index into a kernel parameter array makes
  // the compiler copy the array to local memory.
  const auto near_queue = [&p](long long r) { return r & 1 ? p.near_queue[1] : p.near_queue[0]; };
  const auto far_queue = [&p](int e) { return e & 1 ? p.far_queue[1] : p.far_queue[0]; };
  // Seeded: bound 0 makes the first round split far pile 0 (the seeds) against far_min + delta.
  dist_t bound = k_seeded ? 0 : p.delta;
  long long round = 0;
  int epoch = 0;
  unsigned long long relaxations = 0;
  unsigned long long flushed = 0;  // seeded: relaxations already added to control->work
  // Every queue entry is taken exactly once (near entries the next round, far entries at the
  // next split), so the entries taken count the insertions; uniform, kept by every thread.
  unsigned long long pushes = 0;
  while (true) {
    if (round >= p.max_rounds) {
      if (thread == 0) control->status = k_status_round_limit;
      break;
    }
    if constexpr (k_seeded) {
      if (__ldcg(&control->stop[round & 1]) != 0) {
        if (thread == 0) control->status = k_status_budget;
        break;
      }
      if (thread == 0) {
        control->stop[(round + 1) & 1] = __ldcg(&control->work) > p.work_budget ? 1 : 0;
      }
    }
    const int now = static_cast<int>(round % 3);
    const int next = static_cast<int>((round + 1) % 3);
    const int after = static_cast<int>((round + 2) % 3);
    const sink_t near_sink{near_queue(round + 1), &control->near_count[next]};
    const item_t* in_queue = near_queue(round);
    // Loaded before the count is known (the slot is inside the buffer either way); used only if
    // the count turns out to cover it.
    const item_t first_item = group < p.capacity ? __ldcg(in_queue + group) : make_ulonglong2(0, 0);
    // Counts past capacity only arise after an overflow (already flagged): never read past it.
    const unsigned long long in_count = min_of(__ldcg(&control->near_count[now]), p.capacity);
    if (in_count > 0) {
      const sink_t far_sink{far_queue(epoch), &control->far_count[epoch % 3]};
      relax_round<G, k_joint, k_seeded>(p, in_queue, first_item, in_count, near_sink, far_sink,
                                        &control->far_min[epoch % 3], bound,
                                        static_cast<int>(round), epoch, relaxations);
      pushes += in_count;
      if constexpr (k_seeded) {
        // Flushed in lumps: one atomic per 64 relaxations keeps the shared counter cold.
        if (relaxations - flushed >= 64) {
          atomicAdd(&control->work, relaxations - flushed);
          flushed = relaxations;
        }
      }
      if (thread == 0) control->near_count[after] = 0;
    } else {
      const unsigned long long far_count =
          min_of(__ldcg(&control->far_count[epoch % 3]), p.capacity);
      if (far_count == 0) break;
      const dist_t far_min = __ldcg(&control->far_min[epoch % 3]);
      const dist_t new_bound = max_of(bound, far_min) + p.delta;
      const sink_t far_sink{far_queue(epoch + 1), &control->far_count[(epoch + 1) % 3]};
      filter_round<k_joint>(p, far_queue(epoch), far_count, near_sink, far_sink,
                            &control->far_min[(epoch + 1) % 3], bound, new_bound,
                            static_cast<int>(round), epoch + 1);
      pushes += far_count;
      if (thread == 0) {
        control->near_count[after] = 0;
        control->far_count[(epoch + 2) % 3] = 0;
        control->far_min[(epoch + 2) % 3] = k_infinity;
      }
      bound = new_bound;
      ++epoch;
    }
    grid.sync();
    ++round;
  }

  relaxations = warp_sum(relaxations);
  if ((threadIdx.x & 31u) == 0) atomicAdd(&control->relaxations, relaxations);
  if (thread == 0) {
    control->pushes = pushes;
    control->rounds = round;
    control->epochs = epoch;
  }
}

}  // namespace dyng::sssp::detail::cuda
