// The id/offset combinations libdyng compiles (spec section 1), as the one list that every
// explicit instantiation in the library expands: graph storage, each algorithm on each backend.
// An algorithm's implementation file defines its entry points, then ends with one line,
//   DYNG_INSTANTIATE_ENTRY_POINTS(host, sourced)   (core/entry_points.hpp)
// and other templates end with DYNG_FOR_EACH_GRAPH_TYPES(<their macro>), so adding a
// combination here compiles it everywhere, and no header carries extern template
// lists (the definitions are not visible to includers, so none are needed).
#pragma once

#include <cstdint>

/// Calls X(vid_t, eid_t) once per compiled (vertex id, edge offset) combination.
#define DYNG_FOR_EACH_GRAPH_TYPES(X) \
  X(int32_t, int32_t)                \
  X(int32_t, int64_t)                \
  X(int64_t, int64_t)

/// Calls X(vid_t) once per compiled vertex id type (results are typed by vertex id only).
#define DYNG_FOR_EACH_VERTEX_TYPE(X) \
  X(int32_t)                         \
  X(int64_t)
