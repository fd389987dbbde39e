#include "dyng/backend/cuda/device_scope.hpp"

#include <cuda_runtime.h>

#include <string>

#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/core/errors.hpp"

namespace dyng::cuda {

namespace {

void check_visible(int device) {
  const int count = visible_device_count();
  if (device < 0 || device >= count) {
    throw invalid_argument_error("CUDA device " + std::to_string(device) + " is not visible (" +
                                 std::to_string(count) +
                                 " visible devices); pass an ordinal below that count, and check "
                                 "CUDA_VISIBLE_DEVICES");
  }
}

}  // namespace

void use_device(int device) {
  check_visible(device);
  DYNG_CUDA_CHECK(cudaSetDevice(device));
}

device_scope_t::device_scope_t(int device) {
  check_visible(device);
  int current = 0;
  DYNG_CUDA_CHECK(cudaGetDevice(&current));
  if (current != device) {
    DYNG_CUDA_CHECK(cudaSetDevice(device));
    previous_ = current;
  }
}

device_scope_t::~device_scope_t() {
  // A destructor must not throw; failing to restore leaves the other device current, which the
  // next CUDA call of the caller would report.
  if (previous_ >= 0) (void)cudaSetDevice(previous_);
}

}  // namespace dyng::cuda
