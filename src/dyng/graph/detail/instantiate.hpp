// The id/offset combinations libdyng compiles (spec section 1), as one list so that every
// graph_*.cpp instantiates exactly the same set.
#pragma once

#include <cstdint>

/// Calls X(vid_t, eid_t) once per compiled combination.
#define DYNG_FOR_EACH_GRAPH_TYPES(X) \
  X(int32_t, int32_t)                \
  X(int32_t, int64_t)                \
  X(int64_t, int64_t)
