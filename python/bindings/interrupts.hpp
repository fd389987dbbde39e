// Ctrl-C during a native call. The C++ core polls a stop flag that the caller owns
// (backend/cancel.hpp); these bindings own one, which a SIGINT sets while a call made from Python's
// main thread runs (the only thread the interpreter raises KeyboardInterrupt in). Every entry point
// that can run for long (compute, update, Graph.apply) goes through run_interruptible(), so the
// rule lives here once:
//
//  - The flag's handler is installed for the call only, over the one that was there (Python's), and
//    it chains to it, so Python's own C handler still sees the signal and runs the Python-level
//    handler at its next chance. It does nothing more than an atomic store and that call, both
//    async-signal-safe. Nothing is installed when SIGINT is ignored or left at its default action
//    (the process then stops as it would without dyng), nor for a call from another thread.
//  - A call that stopped threw interrupted_error and left everything as it found it. Its handler is
//    then put back, and the interpreter's pending handlers are run (PyErr_CheckSignals()): Python's
//    default raises KeyboardInterrupt, a user's handler raises what it raises. A handler that
//    returns asked for the program to go on, so the call starts again.
#pragma once

#include <nanobind/nanobind.h>

#include "dyng/backend/execution.hpp"
#include "dyng/core/errors.hpp"

namespace dyng::bindings {

/// While alive on Python's main thread with a SIGINT handler in place (neither ignored nor the
/// default action), a SIGINT sets the stop flag that token() points at before it runs that handler;
/// the handler is back in place once the watch is gone. Elsewhere it installs nothing and its token
/// is empty. Create and destroy it with the GIL held; watches nest.
class sigint_watch_t {
 public:
  sigint_watch_t();
  ~sigint_watch_t();
  sigint_watch_t(const sigint_watch_t&) = delete;
  sigint_watch_t& operator=(const sigint_watch_t&) = delete;

  /// The flag a SIGINT sets while this watch lives, or an empty token where nothing was installed.
  cancel_token_t token() const noexcept;

 private:
  bool watching_ = false;
};

/// Runs the interpreter's pending signal handlers; throws nb::python_error when one raised.
void raise_pending_signals();

/// Returns call(e), where `e` is `exec` whose stop flag a SIGINT sets while the call runs (see
/// sigint_watch_t). When the call stops for it (interrupted_error), the Python-level handler runs:
/// its exception propagates, and if it returns, the call runs again. Call with the GIL held; `call`
/// releases it around its native work as it would without this.
template <class F>
decltype(auto) run_interruptible(const execution_t& exec, F&& call) {
  for (;;) {
    {
      execution_t watched = exec;
      const sigint_watch_t watch;
      watched.cancel = watch.token();
      try {
        return call(static_cast<const execution_t&>(watched));
      } catch (const interrupted_error&) {
        // Leave the scope first: the handler that was in place is back before Python's runs.
      }
    }
    raise_pending_signals();
  }
}

}  // namespace dyng::bindings
