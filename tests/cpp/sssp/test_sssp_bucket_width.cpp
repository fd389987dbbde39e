// The CUDA search's bucket width rule (bucket_width.hpp) on the graph classes it was measured on
// (bench/README.md, the delta sweeps) and at its edges: a flat graph of mean degree 8 or more
// gets 2x the mean weight, any other graph 64x, and no graph a width below 1.
#include <cstdint>

#include "check.hpp"
#include "dyng/sssp/detail/bucket_width.hpp"

namespace {

using dyng::sssp::detail::pick_bucket_width;

DYNG_TEST("flat graphs of many edges per vertex get a narrow bucket") {
  CHECK(pick_bucket_width(50.5, 16.0, 16.0) == 101);  // uniform, out-degree 16
  CHECK(pick_bucket_width(50.5, 8.0, 8.0) == 101);    // uniform, out-degree 8
  CHECK(pick_bucket_width(50.5, 16.0, 64.0) == 101);  // rows up to 4x the mean are flat
}

DYNG_TEST("skewed, sparse and high-diameter graphs keep the wide bucket") {
  CHECK(pick_bucket_width(50.5, 15.6, 97765.0) == 3232);  // R-MAT 22
  CHECK(pick_bucket_width(50.5, 16.0, 64.5) == 3232);     // one row past 4x the mean
  CHECK(pick_bucket_width(50.5, 4.0, 4.0) == 3232);       // grid
  CHECK(pick_bucket_width(50.5, 7.9, 7.9) == 3232);       // flat, below mean degree 8
  CHECK(pick_bucket_width(2.6, 2.5, 4.0) == 166);         // road-like
}

DYNG_TEST("the width is at least 1") {
  CHECK(pick_bucket_width(0.0, 16.0, 16.0) == 1);  // no weight sampled
  CHECK(pick_bucket_width(0.4, 16.0, 16.0) == 1);
  CHECK(pick_bucket_width(1.0, 0.0, 0.0) == 64);  // no edges: not flat-dense
  CHECK(pick_bucket_width(1.0, 16.0, 16.0) == 2);
}

}  // namespace

DYNG_TEST_MAIN()
