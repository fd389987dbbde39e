// dyng._core.set_log_level / get_log_level: the C++ core's log level (core/log.hpp), set by
// dyng.set_log_level on the native module it selected.
#include "dyng/core/log.hpp"
#include "module.hpp"

namespace nb = nanobind;

namespace dyng::bindings {

void bind_log(nb::module_& m) {
  m.def(
      "set_log_level", [](int level) { set_log_level(static_cast<log_level_t>(level)); },
      nb::arg("level"),
      "Sets the core's log level: 0 off, 1 error, 2 warn, 3 info, 4 debug, 5 trace.");
  m.def(
      "get_log_level", [] { return static_cast<int>(get_log_level()); },
      "The core's log level (0 off .. 5 trace).");
}

}  // namespace dyng::bindings
