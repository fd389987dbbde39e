// Formats and throws the error of a failed CUDA runtime call (see cuda_check.hpp).
#include "dyng/backend/cuda/cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "dyng/core/errors.hpp"

namespace dyng::cuda {

void throw_cuda_error(int code, const char* call, const char* file, int line) {
  // Reading the last error resets it unless the error is sticky (then the context is lost anyway
  // and every later call reports it too, which is what the caller should see).
  (void)cudaGetLastError();
  const auto status = static_cast<cudaError_t>(code);
  std::string message = std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                        ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) +
                        ", code " + std::to_string(code) + ")";
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver) {
    message += "; check that a CUDA device is visible and the driver is recent enough";
  } else {
    message += "; this is a CUDA runtime failure, please report it with the message above";
  }
  throw cuda_error(code, message);
}

}  // namespace dyng::cuda
