// The one checker every CUDA runtime call in libdyng goes through.
//
// DYNG_CUDA_CHECK(call) turns a failed call into a dyng::cuda_error whose message carries
// cudaGetErrorName/cudaGetErrorString, the call's text and its file:line, so a failure deep in a
// kernel launch names the line that saw it. The header takes the status as a plain int so that
// host code which never includes cuda_runtime.h (tests, the allocator's users) can include it.
#pragma once

namespace dyng::cuda {

/// Throws dyng::cuda_error for the CUDA status `code` seen at `call` (file:line). Clears the
/// runtime's last error first, so a non-sticky failure does not resurface at an unrelated call.
[[noreturn]] void throw_cuda_error(int code, const char* call, const char* file, int line);

/// Fast path of DYNG_CUDA_CHECK: only a failure leaves the inline code.
inline void check(int code, const char* call, const char* file, int line) {
  if (code != 0) throw_cuda_error(code, call, file, line);
}

}  // namespace dyng::cuda

/// Checks a CUDA runtime call (or cudaGetLastError() after a launch); throws dyng::cuda_error.
#define DYNG_CUDA_CHECK(call) ::dyng::cuda::check(static_cast<int>(call), #call, __FILE__, __LINE__)
