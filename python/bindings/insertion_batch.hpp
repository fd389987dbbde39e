// The insertions of a batch as an algorithm's batch rule sees them before the graph changes
// (sssp_validate_batch, mosp_validate_batch): the Python layer's private arrays wrapped as an
// edge_batch_t of the right id type, checked without the GIL.
#pragma once

#include <cstdint>

#include <nanobind/nanobind.h>

#include "arrays.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::bindings {

/// Calls check(batch) on the insertions (ids int32 or int64, K weights each) with the GIL
/// released; `fn` names the binding in dtype errors.
template <class check_fn>
void check_insertions(const in_array_t& ins_src, const in_array_t& ins_dst, const in_array_t& ins_w,
                      int num_weights, const char* fn, check_fn&& check) {
  auto run = [&](auto tag) {
    using vid_t = decltype(tag);
    edge_batch_t<vid_t> batch{as_span<vid_t>(ins_src, fn, "insert_src"),
                              as_span<vid_t>(ins_dst, fn, "insert_dst"),
                              as_span<int32_t>(ins_w, fn, "insert_weights"),
                              num_weights,
                              {},
                              {}};
    nb::gil_scoped_release release;
    check(batch);
  };
  if (has_dtype<int64_t>(ins_src)) {
    run(int64_t{});
  } else {
    run(int32_t{});
  }
}

}  // namespace dyng::bindings
