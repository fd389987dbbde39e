// Refuses vertex counts whose row arrays alone cannot fit in this machine's memory.
//
// Linux overcommits: a vector of 2^31 row offsets is "allocated" without error and the process is
// killed later, when the pages are touched. A stray large id (ids are not renumbered) would then
// end the user's interpreter instead of raising, so the sizes are checked before anything is
// allocated.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "dyng/core/errors.hpp"

namespace dyng::detail {

inline double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0.0;  // Unknown: no check.
  return static_cast<double>(pages) * static_cast<double>(page_size);
}

inline std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

/// Throws out_of_memory_error when `num_vertices` rows (three offsets per row per stored
/// direction) would exceed physical memory.
template <class eid_t>
void check_vertex_memory(int64_t num_vertices, int directions, const char* fn) {
  const double memory = physical_memory_bytes();
  const double needed =
      static_cast<double>(num_vertices) * directions * 3.0 * static_cast<double>(sizeof(eid_t));
  if (memory > 0.0 && needed > memory) {
    throw out_of_memory_error(std::string(fn) + ": " + std::to_string(num_vertices) +
                              " vertices need " + gib(needed) +
                              " for their row offsets alone, more than this machine's " +
                              gib(memory) + " of memory; check num_vertices and the largest "
                              "vertex id (ids are used as given, not renumbered)");
  }
}

}  // namespace dyng::detail
