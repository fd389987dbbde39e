// A device result whose values stay in host memory (a count, a histogram: a few numbers that
// every reader wants on the host): the host state plus the device it was made on. Its copies
// between spaces are plain copies, which makes it a self_copying_result (device_result.hpp).
// An algorithm derives its device state from it (CRTP), in its own namespace, so the bindings
// still find its compute and update next to the state type.
// No CUDA types here, so the bindings and the algorithms' headers include it.
#pragma once

namespace dyng::cuda {

template <class host_state_t, class derived_t>
struct host_valued_state_t : host_state_t {
  using host_type = host_state_t;
  int device = 0;
  derived_t deep_copy(void*) const { return static_cast<const derived_t&>(*this); }
  host_type copy_to_host(void*) const { return host_type(*this); }
  static derived_t copy_from_host(const host_type& host, int device, void*) {
    derived_t state;
    static_cast<host_type&>(state) = host;
    state.device = device;
    return state;
  }
};

}  // namespace dyng::cuda
