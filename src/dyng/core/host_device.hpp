// DYNG_HOST_DEVICE marks a small function that host code and CUDA kernels share (one formula, one
// rule), so that the two never drift apart. Outside CUDA compilation it expands to nothing.
#pragma once

#if defined(__CUDACC__)
#define DYNG_HOST_DEVICE __host__ __device__
#else
#define DYNG_HOST_DEVICE
#endif
