// The CUDA plumbing: the checker's error, the allocator's out-of-memory error, buffer round trips.
#include <cstdint>
#include <string>
#include <vector>

#include "check.hpp"
#include "dyng/backend/cuda/cuda_check.hpp"
#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/cuda/device_buffer.hpp"
#include "dyng/core/errors.hpp"
#include "gpu_test_util.hpp"

using dyng::cuda::device_buffer;

DYNG_TEST("checker throws cuda_error with the name, call and line") {
  try {
    DYNG_CUDA_CHECK(1);  // cudaErrorInvalidValue
    CHECK(false);
  } catch (const dyng::cuda_error& e) {
    const std::string message = e.what();
    CHECK_EQ(e.code(), 1);
    CHECK(message.find("cudaErrorInvalidValue") != std::string::npos);
    CHECK(message.find("failed at") != std::string::npos);
    CHECK(message.find("test_backend_cuda_memory.cpp") != std::string::npos);
  }
}

DYNG_TEST("an impossible allocation throws out_of_memory_error naming the sizes") {
  const size_t huge = size_t{1} << 52;  // 4 PiB
  try {
    device_buffer<char> buffer(huge);
    CHECK(false);
  } catch (const dyng::out_of_memory_error& e) {
    const std::string message = e.what();
    CHECK(message.find(std::to_string(huge)) != std::string::npos);
    CHECK(message.find("free") != std::string::npos);
  }
  // The failure must not poison later calls.
  device_buffer<int> small(16);
  std::vector<int> host(16, 7), back(16, 0);
  small.copy_from_host(host.data(), host.size());
  small.copy_to_host(back.data(), back.size());
  CHECK(back == host);
}

DYNG_TEST("buffers round-trip, move and reuse pooled memory") {
  std::vector<int64_t> host(100000);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int64_t>(i * i);
  for (int round = 0; round < 3; ++round) {
    device_buffer<int64_t> a(host.size());
    a.copy_from_host(host.data(), host.size());
    device_buffer<int64_t> b = std::move(a);
    CHECK(a.data() == nullptr);
    CHECK_EQ(b.size(), host.size());
    std::vector<int64_t> back(host.size());
    b.copy_to_host(back.data(), back.size());
    CHECK(back == host);
  }
  device_buffer<char> empty(0);
  CHECK(empty.data() == nullptr);
}

int main() {
  if (dyng_test::no_device()) return dyng_test::k_skip;
  return dyng_test::run_all();
}
