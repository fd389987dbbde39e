// Sizing the per-vertex arrays of a compute (distances, parents, path costs, scratch) without
// paying for fresh memory twice.
//
// A compute on a million vertices fills a few dozen MiB of arrays, and a fresh 4 KiB page costs
// a fault on first write, many times what writing the page costs afterwards, which made the
// faults a large part of mosp's compute (bench/README.md, "Figures behind design choices"). So a
// vector keeps its block when it is large enough, and a new block is asked for huge pages before
// anything is written to it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dyng/core/huge_pages.hpp"

namespace dyng::sssp::detail {

/// Makes room for `count` elements: the current block when it is large enough, else a new one
/// (the old one is released first) with huge pages asked for. Contents are unspecified.
template <class T>
void reserve_fresh(std::vector<T>& v, size_t count) {
  if (v.capacity() >= count) return;
  std::vector<T>().swap(v);
  v.reserve(count);
  advise_huge_pages(v.data(), count * sizeof(T));
}

/// `count` copies of `value` in `v`, its block reused or new as reserve_fresh() decides.
template <class T>
void assign_big(std::vector<T>& v, size_t count, const T& value) {
  reserve_fresh(v, count);
  v.assign(count, value);
}

/// `count` elements whose values the caller overwrites (those kept from before, or zeros).
template <class T>
void resize_big(std::vector<T>& v, size_t count) {
  reserve_fresh(v, count);
  v.resize(count);
}

}  // namespace dyng::sssp::detail
