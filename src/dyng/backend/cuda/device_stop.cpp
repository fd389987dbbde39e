#include "dyng/backend/cuda/device_stop.hpp"

#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/execution.hpp"

namespace dyng::cuda {

void throw_if_cancelled_on(void* stream, const char* fn) {
  if (!cancel_scope_t::current().requested()) return;
  synchronize(stream);
  throw_if_cancelled(cancel_scope_t::current(), fn);
}

}  // namespace dyng::cuda
