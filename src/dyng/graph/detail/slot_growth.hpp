// How much room rows and the free tail get: the formulas every layout of a direction uses, on the
// host (slots.hpp) and on the device (cuda/device_apply.cu), so both lay rows out alike.
#pragma once

#include <math.h>

#include <cstdint>

#include "dyng/core/host_device.hpp"

namespace dyng::detail {

/// Spare slots for a row of `degree` edges at (re)layout: `headroom` of the degree, at least one
/// for a non-empty row (so that a single insertion never moves a row that was just laid out) and
/// none for an empty row (isolated vertices are common and would otherwise cost n slots).
DYNG_HOST_DEVICE inline int64_t spare_slots(int64_t degree, double headroom) {
  if (degree == 0) return 0;
  const auto extra = static_cast<int64_t>(ceil(headroom * static_cast<double>(degree)));
  return extra > 1 ? extra : 1;
}

/// Capacity of a row that outgrew its range and moves to the tail. At least 25% growth, so a
/// row that keeps receiving edges moves O(log degree) times: amortised O(1) copies per edge.
DYNG_HOST_DEVICE inline int64_t moved_capacity(int64_t size, double headroom) {
  const int64_t spare = spare_slots(size, headroom);
  const int64_t quarter = (size + 3) / 4;
  return size + (spare > quarter ? spare : quarter);
}

/// Free tail left after a (re)layout for rows that outgrow their range: headroom * m slots, but at
/// least m / 32 (and 64) even with headroom 0, because a tail proportional to m is what makes
/// the O(m) relayouts amortise to O(1) per inserted edge.
DYNG_HOST_DEVICE inline int64_t tail_slots(int64_t used, double headroom) {
  const double fraction = headroom > 1.0 / 32.0 ? headroom : 1.0 / 32.0;
  const auto slots = static_cast<int64_t>(ceil(fraction * static_cast<double>(used)));
  return slots > 64 ? slots : 64;
}

}  // namespace dyng::detail
