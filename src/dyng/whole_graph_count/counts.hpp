// The two shapes a whole-graph count takes, one number (a count of triangles) or a
// histogram of exact counts by length (of cycles), and the arithmetic the shared update steps do on
// either (update_steps.hpp). Every function has an overload per shape, so the steps read the same
// for both.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dyng/core/errors.hpp"

namespace dyng::whole_graph_count {

using histogram_t = std::vector<uint64_t>;

/// Entries that are not zero (a compute's `affected`).
inline int64_t nonzero_entries(uint64_t count) { return count != 0 ? 1 : 0; }
inline int64_t nonzero_entries(const histogram_t& counts) {
  return std::count_if(counts.begin(), counts.end(), [](uint64_t c) { return c != 0; });
}

/// Zeros shaped as `counts` (what an engine counts a batch into).
inline uint64_t zeroed_like(uint64_t) { return 0; }
inline histogram_t zeroed_like(const histogram_t& counts) { return histogram_t(counts.size(), 0); }

/// The sum of the entries (the batch's stats).
inline uint64_t total(uint64_t count) { return count; }
inline uint64_t total(const histogram_t& counts) {
  uint64_t sum = 0;
  for (const uint64_t c : counts) sum += c;
  return sum;
}

/// Entries that differ, a missing entry reading as 0 (an update's `affected`).
inline int64_t changed_entries(uint64_t a, uint64_t b) { return a != b ? 1 : 0; }
inline int64_t changed_entries(const histogram_t& a, const histogram_t& b) {
  const size_t n = std::max(a.size(), b.size());
  int64_t changed = 0;
  for (size_t l = 0; l < n; ++l) {
    changed += (l < a.size() ? a[l] : 0) != (l < b.size() ? b[l] : 0) ? 1 : 0;
  }
  return changed;
}

/// counts -= removed; more removed than counted is a bug of the repair. `name` names the
/// algorithm in the message.
inline void take_away(uint64_t& count, uint64_t removed, const char* name) {
  if (removed <= count) {
    count -= removed;
    return;
  }
  throw internal_error(std::string(name) + ".update(): " + std::to_string(removed) +
                       " removed but only " + std::to_string(count) +
                       " counted; this is a bug in dyng");
}
inline void take_away(histogram_t& counts, const histogram_t& removed, const char* name) {
  for (size_t l = 0; l < counts.size(); ++l) {
    if (counts[l] < removed[l]) {
      throw internal_error(std::string(name) + ".update(): more of length " + std::to_string(l) +
                           " removed than there were; this is a bug in dyng");
    }
    counts[l] -= removed[l];
  }
}

/// Puts the counts kept before the batch back without allocating (the steps' undo never throws):
/// a histogram only grows during an update, so the saved one fits its storage.
inline void restore(uint64_t& count, uint64_t saved) noexcept { count = saved; }
inline void restore(histogram_t& counts, const histogram_t& saved) noexcept {
  counts.resize(saved.size());
  std::copy(saved.begin(), saved.end(), counts.begin());
}

/// Adds each entry's increase from `before` to `now` to `added` and each decrease to `removed`
/// (what a recompute reports, as it does not see what went and what came).
inline void add_net_change(uint64_t before, uint64_t now, uint64_t& added, uint64_t& removed) {
  (now > before ? added : removed) += now > before ? now - before : before - now;
}
inline void add_net_change(const histogram_t& before, const histogram_t& now, uint64_t& added,
                           uint64_t& removed) {
  for (size_t l = 0; l < now.size(); ++l) {
    add_net_change(l < before.size() ? before[l] : 0, now[l], added, removed);
  }
}

}  // namespace dyng::whole_graph_count
