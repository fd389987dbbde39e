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
#include <cstdint>

namespace dyng {

/// A reference to the caller's stop flag; empty by default (never cancelled).
struct cancel_token_t {
  const std::atomic<bool>* flag = nullptr;

  /// True once the caller asked this call to stop. A relaxed load: cheap enough for inner loops.
  bool requested() const noexcept {
    return flag != nullptr && flag->load(std::memory_order_relaxed);
  }
};

/// How often a loop whose single step is short (a row, a vertex) polls: every this many steps,
/// written `(i & k_cancel_poll_mask) == 0`. A step of a large graph's loop costs nanoseconds to
/// microseconds, so a call still stops within milliseconds, and the load is not measurable.
inline constexpr int64_t k_cancel_poll_mask = 4095;

/// The stop flag as one OpenMP team sees it. The caller's flag alone does not make threads agree:
/// one may read it set while another still reads it clear. A thread that sees it set records the
/// stop here and leaves its share of the work; the team reads stopped() after a barrier to agree
/// on what to do next (leave a loop together, skip a pass), and the code after the region throws
/// when stopped() (the end of the region orders every record before that read).
class team_stop_t {
 public:
  explicit team_stop_t(const cancel_token_t& cancel) noexcept : cancel_(cancel) {}
  team_stop_t(const team_stop_t&) = delete;
  team_stop_t& operator=(const team_stop_t&) = delete;

  /// True once some thread stopped or the caller asked: the calling thread should leave its work.
  bool poll() noexcept {
    if (stopped_.load(std::memory_order_relaxed)) return true;
    if (!cancel_.requested()) return false;
    stopped_.store(true, std::memory_order_relaxed);
    return true;
  }
  /// True when some thread stopped. Every thread reads the same answer after a barrier that no
  /// poll() follows before the read.
  bool stopped() const noexcept { return stopped_.load(std::memory_order_relaxed); }

 private:
  cancel_token_t cancel_;
  std::atomic<bool> stopped_{false};
};

/// The stop flag of the call the calling thread is running, for code that is handed a CUDA stream
/// rather than an execution_t (the GPU entry points, whose profile stages find their session the
/// same way): the bindings open a scope with the call's token around a device call, and the
/// device code's host side polls current() (backend/cuda/device_stop.hpp). Scopes nest.
class cancel_scope_t {
 public:
  explicit cancel_scope_t(cancel_token_t token) noexcept;
  ~cancel_scope_t();
  cancel_scope_t(const cancel_scope_t&) = delete;
  cancel_scope_t& operator=(const cancel_scope_t&) = delete;

  /// The token of the innermost scope open on this thread; empty outside every scope.
  static cancel_token_t current() noexcept;

 private:
  cancel_token_t outer_;
};

}  // namespace dyng
