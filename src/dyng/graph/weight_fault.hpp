// The first insertion of a batch whose weight in one column is below 1, which the algorithms'
// batch rules (weights in [1, 2^31-1]) refuse: found by a scan of a host batch
// (detail::first_weight_below_one) or by the staging kernel of a batch in device memory
// (cuda/device_batch.hpp), and judged by the algorithms' check_insertion_weights().
#pragma once

#include <cstdint>

namespace dyng {

struct weight_fault_t {
  int64_t index = -1;  ///< -1: every weight of the column is >= 1
  int64_t u = 0;       ///< The insertion's edge (-1 when the batch lacks its ids).
  int64_t v = 0;
  int32_t weight = 0;
};

}  // namespace dyng
