// The rank filter of the edge readers: which sources' edges a read keeps (one rank's shard of
// a 1D partition), and the check of a range a caller passes. Its own header because both the
// edge-list and the Matrix Market reader use it, and neither should depend on the other for it.
#pragma once

#include <climits>
#include <cstdint>
#include <string>

#include "dyng/core/errors.hpp"

namespace dyng::io {

/// The sources whose edges a reader keeps, `lo <= src < hi` (ids as the reader returns them):
/// the shard of one rank of a 1D partition, the out-edges of the vertices it owns. The default
/// keeps every edge (a compact read's ids may be negative until renumbered); hi = INT64_MAX has
/// no upper end (the last rank owns every later id).
struct source_range_t {
  int64_t lo = INT64_MIN;
  int64_t hi = INT64_MAX;
  /// True for the default, which leaves no edge out.
  bool all() const { return lo == INT64_MIN && hi == INT64_MAX; }
  bool holds(int64_t id) const { return id >= lo && id < hi; }
};

/// Throws invalid_argument_error unless `range` is the default or 0 <= range.lo <= range.hi.
inline void check_source_range(const source_range_t& range, const char* function) {
  if (!range.all() && (range.lo < 0 || range.hi < range.lo))
    throw invalid_argument_error(std::string(function) + "(): the source range [" +
                                 std::to_string(range.lo) + ", " + std::to_string(range.hi) +
                                 ") is not 0 <= lo <= hi; pass such a range");
}

}  // namespace dyng::io
