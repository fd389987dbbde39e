// A batch whose arrays are already in device memory (CuPy, PyTorch, any DLPack producer): taken
// as its producer laid it out, converted to the graph's types and checked on the device by
// device_graph_t::stage(), then applied by device_graph_t::apply(staged) with no host copy of
// the batch. Staging does one kernel over the batch and one small copy back of what the checks
// need (the first refused entries, the id range, the self-loops), so a refused batch is refused
// with the messages a host batch gets (batch_validate.hpp) before anything changes.
#pragma once

#include <cstdint>
#include <vector>

#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/graph/detail/batch_validate.hpp"

namespace dyng::cuda {

/// An integer array in device memory: rows x cols elements of `bits` bits (signed or not), the
/// element (r, c) at data + (r * row_stride + c * col_stride) elements.
struct device_int_array_t {
  const void* data = nullptr;
  int64_t rows = 0;
  int64_t cols = 1;
  int64_t row_stride = 1;
  int64_t col_stride = 1;
  int bits = 32;
  bool is_signed = true;
};

/// The arrays of a batch; an absent one has no rows.
struct device_batch_arrays_t {
  device_int_array_t insert_src, insert_dst, insert_weights, delete_src, delete_dst;
  int num_weights = 0;  ///< Columns of insert_weights (0 when the insertions carry none).
};

/// A value a conversion refuses: its index (-1: none) and the value, which for an unsigned
/// 64-bit value past int64 is its bit pattern with `above_int64` set.
struct value_fault_t {
  int64_t index = -1;
  int64_t value = 0;
  bool above_int64 = false;
};

/// What converting the arrays to the graph's types found, for the Python layer to word as it
/// words a host array's faults. Id arrays in the order insert_src, insert_dst, delete_src,
/// delete_dst.
struct conversion_faults_t {
  enum : int { k_insert_src, k_insert_dst, k_delete_src, k_delete_dst, k_arrays };
  value_fault_t above_int64[k_arrays];  ///< unsigned 64-bit ids past int64
  value_fault_t negative[k_arrays];
  value_fault_t too_wide[k_arrays];  ///< ids past the graph's id type
  value_fault_t weight;              ///< first weight (row-major) outside int32; index = row
  int64_t weight_column = -1;

  bool any() const {
    for (int a = 0; a < k_arrays; ++a) {
      if (above_int64[a].index >= 0 || negative[a].index >= 0 || too_wide[a].index >= 0) {
        return true;
      }
    }
    return weight.index >= 0;
  }
};

/// A batch converted and checked in device memory, for one device graph (device_graph_t::stage).
template <class vid_t>
struct staged_batch_t {
  device_buffer<unsigned char> blob;  ///< The ids as vid_t and the weights as int32, packed.
  size_t at_insert_src = 0, at_insert_dst = 0, at_insert_weights = 0, at_delete_src = 0,
         at_delete_dst = 0;
  int64_t num_insertions = 0, num_deletions = 0;
  int num_weights = 0;
  int device = 0;
  conversion_faults_t conversion;
  /// The id checks' facts (valid when the conversion found nothing), for the graph at
  /// `checked_version` (apply() finds them again if the graph has moved on).
  ::dyng::detail::batch_id_facts_t ids;
  uint64_t checked_version = 0;
  /// Per weight column, the first insertion whose weight there is below 1.
  std::vector<weight_fault_t> below_one;

  const vid_t* insert_src() const { return at<vid_t>(at_insert_src); }
  const vid_t* insert_dst() const { return at<vid_t>(at_insert_dst); }
  const int32_t* insert_weights() const { return at<int32_t>(at_insert_weights); }
  const vid_t* delete_src() const { return at<vid_t>(at_delete_src); }
  const vid_t* delete_dst() const { return at<vid_t>(at_delete_dst); }

 private:
  template <class T>
  const T* at(size_t offset) const {
    return reinterpret_cast<const T*>(blob.data() + offset);
  }
};

}  // namespace dyng::cuda
