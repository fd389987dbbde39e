// Ready-made GPU steps for run_update() (core/dynamic_update.hpp), for a device result that
// describes its arrays (device_result.hpp): growth and shrinking from the arrays, a snapshot (a
// clone of the grown state) taken before the repair, undo by copying the snapshot back, and a
// recompute that overwrites the whole state (so the policy skips the undo before it). The
// algorithm gives two callables:
//   repair(log, budget, stats, snapshot) -> bool   the GPU repair, false once past `budget`;
//   recompute(state, snapshot, attempt) -> stats    a full compute into `state`, with
//                                                   `affected` counted against `snapshot`.
// A repair that writes the state only in its last step, and counts `affected` itself, needs no
// snapshot (components: relabel_kernels.cuh): it passes snapshot_t::for_recompute, and the
// snapshot is then taken only when the budget sends the update to a recompute (the callable
// gets an empty state in its place). An algorithm that keeps a mirror of its state between
// updates (sssp: its repair then costs O(what it touches), sssp_cuda_update.cu) writes its own
// steps.
// No CUDA types here: the callables launch the kernels. A compute readies its result for the
// first snapshot with reserve_snapshot().
#pragma once

#include <cstdint>
#include <utility>

#include "dyng/backend/cuda/device_result.hpp"
#include "dyng/core/stage_scope.hpp"

namespace dyng::cuda {

/// Makes one snapshot's worth of device memory and gives it back, so that the pool holds it
/// (device_allocator.cu keeps what is freed) when a result's first update takes its snapshot:
/// the compute of an algorithm that updates through these steps calls it on its fresh result,
/// where the first update would otherwise map new memory inside the caller's timed call.
template <class D>
void reserve_snapshot(const D& state) {
  const D unused = allocate_like<D>(state, state.device, state.num_vertices);
}

/// When snapshot_steps_t copies the state: before the repair (it may write the state part-way,
/// and undo() puts it back), or only before a recompute (the repair writes the state in its last
/// step alone, whose only failure is a device fault, and counts `affected` without a copy).
enum class snapshot_t { before_repair, for_recompute };

template <class D, class stats_t, class repair_t, class recompute_t>
class snapshot_steps_t {
 public:
  using stats_type = stats_t;
  static constexpr bool k_recompute_overwrites = true;

  snapshot_steps_t(D& state, void* stream, int64_t work_scale, double default_budget,
                   engine_t engine, repair_t repair, recompute_t recompute,
                   snapshot_t when = snapshot_t::before_repair)
      : state_(state),
        stream_(stream),
        work_scale_(work_scale),
        default_budget_(default_budget),
        engine_(engine),
        repair_(std::move(repair)),
        recompute_(std::move(recompute)),
        when_(when) {}

  int64_t result_vertices() const { return state_.num_vertices; }
  int64_t work_scale() const { return work_scale_; }
  double default_budget() const { return default_budget_; }
  void grow(int64_t n) { ::dyng::cuda::grow(state_, n, stream_); }
  /// The grown buffers stay: they only need to hold at least num_vertices entries.
  void shrink(int64_t n) noexcept { state_.num_vertices = n; }

  template <class log_t>
  bool repair(const log_t& log, int64_t budget, stats_t& stats) {
    stats.record(engine_);
    // Without changes nothing moves, and new vertices stay untouched, unless untouched is not
    // their answer (a new vertex is a component of its own): D says so with
    // `static constexpr bool k_new_vertices_need_repair = true`.
    const bool grew = log.num_vertices_after != log.num_vertices_before;
    if (log.changes.empty() && !(grew && new_vertices_need_repair())) return true;
    if (when_ == snapshot_t::before_repair) take_snapshot();
    return repair_(log, budget, stats, snapshot_);
  }

  /// Puts the snapshot back. A CUDA failure here leaves nothing to restore from, so it is
  /// swallowed: the error that made the policy undo is the one the caller sees.
  void undo() noexcept {
    if (!taken_) return;
    try {
      copy_values(state_, snapshot_, stream_);
    } catch (...) {
    }
  }

  void recompute(stats_t& stats) {
    take_snapshot();
    try {
      stats = recompute_(state_, snapshot_, stats);
    } catch (...) {
      undo();
      throw;
    }
  }

 private:
  static constexpr bool new_vertices_need_repair() {
    if constexpr (requires { D::k_new_vertices_need_repair; }) {
      return D::k_new_vertices_need_repair;
    } else {
      return false;
    }
  }

  void take_snapshot() {
    if (taken_) return;
    const stage_scope_t stage("result.snapshot");
    snapshot_ = clone(state_, stream_);
    taken_ = true;
  }

  D& state_;
  void* stream_;
  int64_t work_scale_;
  double default_budget_;
  engine_t engine_;
  repair_t repair_;
  recompute_t recompute_;
  snapshot_t when_;
  D snapshot_;
  bool taken_ = false;
};

}  // namespace dyng::cuda
