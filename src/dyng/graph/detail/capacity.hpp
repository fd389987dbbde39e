// Refuses, before anything is allocated, a graph build or growth that this machine cannot hold.
//
// Linux overcommits: a large vector is "allocated" without error and the process is killed later,
// when its pages are touched. A stray large id (ids are not renumbered) would then end the user's
// interpreter instead of raising OutOfMemoryError, so the builds estimate the memory they will
// touch and compare it with what the machine can still give.
//
// What is touched: per-row arrays (three offsets per row and direction, plus the build's int64
// scratch) are zero-page backed (core/zeroed_array.hpp), so only the pages of rows that get
// entries cost memory: min(whole array, rows with entries x one page) per array. Per-slot arrays
// (columns, weights, payloads, staging records) are touched in full.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>

#include "dyng/core/errors.hpp"

namespace dyng::detail {

/// A field of /proc/meminfo in bytes, or -1.
inline double meminfo_bytes(const char* field) {
#if defined(__linux__)
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    const std::string prefix = std::string(field) + ": %lld kB";
    long long kib = -1;
    while (std::fgets(line, sizeof line, f) != nullptr) {
      if (std::sscanf(line, prefix.c_str(), &kib) == 1) break;
    }
    std::fclose(f);
    if (kib >= 0) return static_cast<double>(kib) * 1024.0;
  }
#else
  (void)field;
#endif
  return -1.0;
}

inline double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0.0;
  return static_cast<double>(pages) * static_cast<double>(page_size);
}

/// Memory the machine can still give, in bytes: MemAvailable on Linux, else the physical memory;
/// 0 when unknown (no check then).
inline double available_memory_bytes() {
  const double available = meminfo_bytes("MemAvailable");
  return available >= 0.0 ? available : physical_memory_bytes();
}

/// The largest block the kernel hands out at all: Linux's default overcommit refuses a single
/// allocation beyond memory plus swap, even one whose pages would never be touched.
inline double largest_block_bytes() {
  const double swap = std::max(0.0, meminfo_bytes("SwapTotal"));
  return physical_memory_bytes() + swap;
}

inline std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

/// Bytes that per-row arrays of n entries (entry sizes `sizes`) touch when `rows` of their rows
/// are written: each array in full, or one page per written row, whichever is less.
inline double row_array_bytes(int64_t n, int64_t rows, std::initializer_list<size_t> sizes) {
  constexpr double k_page = 4096.0;
  double total = 0.0;
  for (const size_t size : sizes) {
    total += std::min(static_cast<double>(n) * static_cast<double>(size),
                      static_cast<double>(std::min(n, rows)) * k_page);
  }
  return total;
}

/// Throws out_of_memory_error when `needed` bytes (touched) exceed the memory available, or the
/// largest single block (reserved, touched or not) exceeds what the kernel hands out; `what`
/// describes the request ("a graph of ... vertices and ... edges").
inline void check_memory(double needed, double largest_block, const std::string& what,
                         const char* fn) {
  const std::string fix =
      "; check num_vertices and the largest vertex id (ids are used as "
      "given, not renumbered), free memory, or use a larger machine";
  const double available = available_memory_bytes();
  if (available > 0.0 && needed > available) {
    throw out_of_memory_error(std::string(fn) + ": " + what + " needs about " + gib(needed) +
                              " but this machine has " + gib(available) + " available" + fix);
  }
  const double limit = largest_block_bytes();
  if (limit > 0.0 && largest_block > limit) {
    throw out_of_memory_error(std::string(fn) + ": " + what + " needs a single block of " +
                              gib(largest_block) +
                              " (its per-vertex arrays) but this machine "
                              "hands out at most " +
                              gib(limit) + " (memory plus swap)" + fix);
  }
}

/// The peak memory from_edges() touches for `entries` row entries (edges, twice when undirected)
/// over n rows: the out-direction build (offsets, int64 scratch, slots with headroom and their
/// payloads, staging records), then, with in-edges, the finished out-direction beside the
/// transpose being built.
/// The largest single block from_edges() asks for: a per-row scratch array of int64 or the slots.
inline double from_edges_largest_block(int64_t n, int64_t entries, double headroom) {
  const double slots = static_cast<double>(entries) * (1.0 + std::max(headroom, 1.0 / 32.0)) + 64;
  return std::max(static_cast<double>(n) * 8.0, slots * 8.0);
}

template <class vid_t, class eid_t>
double from_edges_bytes(int64_t n, int64_t entries, int num_weights, double headroom,
                        bool transposed) {
  const size_t e = sizeof(eid_t);
  const double slots = static_cast<double>(entries) * (1.0 + std::max(headroom, 1.0 / 32.0)) + 64;
  const double payload = num_weights == 1 ? 4.0 : 8.0;
  const double weights = 4.0 * num_weights;
  const double record = static_cast<double>(2 * sizeof(vid_t)) + 8.0;
  const double out_build = row_array_bytes(n, entries, {e, e, e, 8, 8, 8}) +
                           slots * (sizeof(vid_t) + payload + weights) +
                           static_cast<double>(entries) * record;
  const double out_done =
      row_array_bytes(n, entries, {e, e, e}) + slots * (sizeof(vid_t) + weights);
  const double in_build = row_array_bytes(n, entries, {e, e, e, 8, 8}) +
                          slots * (sizeof(vid_t) + weights) + static_cast<double>(entries) * record;
  return transposed ? std::max(out_build, out_done + in_build) : out_build;
}

/// The memory a batch that grows the vertex set from n_before to n_after touches beyond the
/// graph: the offsets of the old rows are copied into arrays of the new size (the new rows stay
/// zero pages), once per stored direction, and `ops` row operations are staged.
template <class eid_t>
double growth_bytes(int64_t n_before, int64_t n_after, int64_t ops, int directions) {
  const double copied = static_cast<double>(n_before) * 3.0 * sizeof(eid_t);
  const double new_rows =
      row_array_bytes(n_after - n_before, ops, {sizeof(eid_t), sizeof(eid_t), sizeof(eid_t)});
  return directions * (copied + new_rows) + static_cast<double>(ops) * 64.0;
}

/// The largest single block growth asks for: an offsets array of up to 1.5 n_after entries
/// (zeroed_array grows by at least half).
template <class eid_t>
double growth_largest_block(int64_t n_after) {
  return 1.5 * static_cast<double>(n_after) * sizeof(eid_t);
}

}  // namespace dyng::detail
