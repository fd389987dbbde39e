// Makes one CUDA device current for the lifetime of a scope and restores the caller's device
// (device_scope_t), or for good (use_device(), for NCCL, which binds to the current device).
//
// libdyng's entry points take a device ordinal, but the CUDA runtime keeps "the current device"
// per host thread. A user who works on device 1 in CuPy and calls dyng for device 0 must find
// device 1 current again afterwards, hence the restore.
#pragma once

namespace dyng::cuda {

/// Makes `device` the calling thread's current device and leaves it so (no restore), for a
/// library that binds to the current device, as NCCL's communicators do; throws
/// invalid_argument_error when it is not a visible device.
void use_device(int device);

class device_scope_t {
 public:
  /// Switches to `device`; throws invalid_argument_error when it is not a visible device.
  explicit device_scope_t(int device);
  ~device_scope_t();

  device_scope_t(const device_scope_t&) = delete;
  device_scope_t& operator=(const device_scope_t&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace dyng::cuda
