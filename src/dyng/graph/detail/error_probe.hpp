// A quick look for an 'error' mode's rejection before the full resolve sorts the whole batch.
//
// The full resolve (batch_resolve.hpp) has to order every operation by edge key before it can
// say which one an 'error' mode rejects, so a bad 10-million-entry batch cost as much to refuse
// as to apply. A bad batch usually holds its first bad entry early. The probe replays the first
// operations in processing order, keyed by a small hash table, and throws the rejection as soon
// as it meets it. Replaying a prefix in order is exact: an operation's verdict depends only on
// the operations before it, so the probe throws the same error, with the same message, that the
// full resolve would. Finding nothing, it leaves the rest to the full resolve.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "dyng/core/errors.hpp"
#include "dyng/graph/detail/edge_replay.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::detail {

/// Operations the probe replays at most: about 40 MB of table, a few percent of a full resolve
/// of a batch this size, and nothing for smaller batches beyond their own length.
constexpr int64_t k_error_probe_ops = int64_t{1} << 20;

/// Replays up to `limit` operations of `batch` in processing order and throws
/// invalid_argument_error for the first one an 'error' mode rejects. `copies(u, v)` counts the
/// stored copies of (u, v); `n` is the vertex count before the batch. Does nothing unless
/// on_missing_delete or on_existing_insert is 'error'. Call after validate_batch.
template <class vid_t, class copies_fn>
void probe_batch_errors(const edge_batch_t<vid_t>& batch, const graph_properties_t& props,
                        int64_t n, int64_t limit, copies_fn&& copies) {
  const auto& sem = props.semantics;
  const bool missing_is_error = sem.on_missing_delete == on_missing_delete_t::error;
  const bool existing_is_error = sem.on_existing_insert == on_existing_insert_t::error;
  if (!missing_is_error && !existing_is_error) return;
  const int64_t nd = static_cast<int64_t>(batch.delete_src.size());
  const int64_t ni = static_cast<int64_t>(batch.insert_src.size());
  const int64_t ops = std::min(limit, nd + ni);
  if (ops == 0) return;

  struct slot_t {
    vid_t a, b;
    bool used;
    edge_replay_t replay;
  };
  const size_t capacity = std::bit_ceil(static_cast<size_t>(2 * ops));
  std::vector<slot_t> table(capacity);
  // The replay state of key (a, b), made on first touch from the stored copies.
  auto state_of = [&](vid_t a, vid_t b) -> edge_replay_t& {
    uint64_t h = (static_cast<uint64_t>(a) * 0x9E3779B97F4A7C15ULL) ^ static_cast<uint64_t>(b);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    for (size_t i = h & (capacity - 1);; i = (i + 1) & (capacity - 1)) {
      slot_t& s = table[i];
      if (!s.used) {
        s = {a, b, true, {}};
        s.replay.count = (a < n && b < n) ? as_found(copies(a, b)).count : 0;
        return s.replay;
      }
      if (s.a == a && s.b == b) return s.replay;
    }
  };
  auto key_of = [&](vid_t& u, vid_t& v) {
    if (!props.directed && v < u) std::swap(u, v);
  };
  int64_t budget = ops;
  auto deletions = [&] {
    for (int64_t i = 0; i < nd && budget > 0; ++i, --budget) {
      vid_t a = batch.delete_src[i], b = batch.delete_dst[i];
      key_of(a, b);
      if (state_of(a, b).delete_step(sem.as_sets) == replay_step_t::missing_delete &&
          missing_is_error) {
        throw invalid_argument_error(
            missing_delete_text(i, batch.delete_src[i], batch.delete_dst[i]));
      }
    }
  };
  auto insertions = [&] {
    for (int64_t i = 0; i < ni && budget > 0; ++i, --budget) {
      vid_t a = batch.insert_src[i], b = batch.insert_dst[i];
      if (a == b && sem.on_self_loop == on_self_loop_t::drop) continue;
      key_of(a, b);
      if (state_of(a, b).insert_step(sem.as_sets) == replay_step_t::existing_insert &&
          existing_is_error) {
        throw invalid_argument_error(
            existing_insert_text(i, batch.insert_src[i], batch.insert_dst[i]));
      }
    }
  };
  if (sem.deletions_first) {
    deletions();
    insertions();
  } else {
    insertions();
    deletions();
  }
}

}  // namespace dyng::detail
