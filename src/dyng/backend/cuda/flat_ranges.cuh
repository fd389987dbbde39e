// Ranges laid end to end (rows' slots copied as one flat array, the out-slots of a vertex list):
// which range a flat index falls in, so that a kernel can spread the whole flat array over its
// grid instead of giving each range, however long, to one warp.
#pragma once

namespace dyng::cuda {

/// The range of flat index j: the i < count with starts[i] <= j < starts[i + 1] (the ranges'
/// starts in increasing order, starts[0] <= j, and j below the end of the last range). Empty
/// ranges are never it.
template <class index_t>
__device__ __forceinline__ long long range_of(const index_t* starts, long long count, index_t j) {
  long long low = 0, high = count;  // starts[low] <= j, and j < starts[high] (or the end)
  while (high - low > 1) {
    const long long mid = low + (high - low) / 2;
    if (starts[mid] <= j) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return low;
}

}  // namespace dyng::cuda
