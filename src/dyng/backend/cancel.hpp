// How a long native call learns that its caller wants it to stop (Ctrl-C in Python).
//
// The C++ core installs no signal handler and keeps no global flag: an execution_t carries a
// cancel_token_t that points at a flag owned by whoever made the call. The Python bindings point
// it at the flag their SIGINT handler sets, for calls made from Python's main thread (the only
// thread that receives KeyboardInterrupt); a C++ caller may point it at any flag of its own, or
// leave it empty, which makes every poll a no-op.
//
// Loops poll with cancel_requested() at points that come around often enough that a call stops
// within a small fraction of a second (an iteration of an outer loop, a kernel launch, every few
// thousand vertices of a serial walk), and leave by throwing interrupted_error through the same
// paths that any other failure takes, so that a compute leaves nothing behind and an update puts
// the result back as it was (core/dynamic_update.hpp). An exception must not leave an OpenMP
// region: inside one, threads stop their share of the work when they see the flag, and the
// thread that continues after the region throws.
#pragma once

#include <atomic>

namespace dyng {

/// A reference to the caller's stop flag; empty by default (never cancelled).
struct cancel_token_t {
  const std::atomic<bool>* flag = nullptr;

  /// True once the caller asked this call to stop. A relaxed load: cheap enough for inner loops.
  bool requested() const noexcept {
    return flag != nullptr && flag->load(std::memory_order_relaxed);
  }
};

}  // namespace dyng
