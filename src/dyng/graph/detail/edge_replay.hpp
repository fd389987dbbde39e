// What one batch operation does to one edge key, given what the batch did to that key before it
// (spec section 3). Shared by the full resolve (batch_resolve.hpp), which replays each key's
// operations after sorting by key, and the error probe (error_probe.hpp), which replays a prefix
// of the batch in processing order, and the device graph's resolve kernel (cuda/apply_kernels.cuh);
// one rule, so all reach the same verdict.
#pragma once

#include <cstdint>
#include <string>

#include "dyng/core/host_device.hpp"

namespace dyng::detail {

enum class replay_step_t {
  erase,            ///< a deletion that removes a copy
  missing_delete,   ///< a deletion with no copy left
  insert,           ///< an insertion of an absent edge
  existing_insert,  ///< an insertion of an edge that exists at that point
  repeat,           ///< a repeat that set semantics collapses before anything is counted
};

/// The state of one edge key while its operations are replayed in processing order.
struct edge_replay_t {
  int64_t count = 0;  ///< copies stored at this point of the batch
  bool seen_insert = false, seen_delete = false, erased = false, inserted = false;

  DYNG_HOST_DEVICE replay_step_t delete_step(bool as_sets) {
    // Under set semantics repeats within the batch collapse before anything is counted
    // (0.2 counts two insertions of one existing edge as one ignored insertion).
    if (as_sets && seen_delete) return replay_step_t::repeat;
    seen_delete = true;
    if (count == 0) return replay_step_t::missing_delete;
    --count;
    erased = true;
    return replay_step_t::erase;
  }

  DYNG_HOST_DEVICE replay_step_t insert_step(bool as_sets) {
    if (as_sets && seen_insert) return replay_step_t::repeat;
    seen_insert = true;
    if (count > 0) return replay_step_t::existing_insert;
    ++count;
    inserted = true;
    return replay_step_t::insert;
  }
};

/// The message of an 'error' mode's rejection; `index` is the position in its list.
/// What a copies(u, v) callback of the resolve returns: the stored copies of (u, v), or those with
/// the slot of the first (the graph's own callback knows it from its search; an erasure carries it
/// on, see row_op_t::widx, so that an undo record need not search again).
struct copies_found_t {
  int64_t count = 0;
  int64_t first = -1;
};
inline copies_found_t as_found(int64_t count) { return {count, -1}; }
inline copies_found_t as_found(copies_found_t found) { return found; }

inline std::string missing_delete_text(int64_t index, int64_t u, int64_t v) {
  return "Graph.apply(): deletion " + std::to_string(index) + " removes edge (" +
         std::to_string(u) + ", " + std::to_string(v) +
         "), which does not exist at that point of the batch; remove it or use "
         "on_missing_delete='ignore'";
}

inline std::string existing_insert_text(int64_t index, int64_t u, int64_t v) {
  return "Graph.apply(): insertion " + std::to_string(index) + " adds edge (" + std::to_string(u) +
         ", " + std::to_string(v) +
         "), which already exists at that point of the batch; remove it or use "
         "on_existing_insert='upsert' or 'ignore'";
}

}  // namespace dyng::detail
