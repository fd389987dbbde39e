// The SIGINT watch of interrupts.hpp: a handler that sets the bindings' stop flag and chains to the
// handler it replaced.
#include "interrupts.hpp"

#include <atomic>

#if defined(__unix__) || defined(__APPLE__)
#include <signal.h>
#define DYNG_HAVE_SIGACTION 1
#endif

namespace dyng::bindings {
namespace {

// Read by a signal handler: it must be lock-free to be async-signal-safe.
static_assert(std::atomic<bool>::is_always_lock_free);

/// The one stop flag: only calls from the main thread point at it, one at a time.
std::atomic<bool> g_sigint_seen{false};

#if defined(DYNG_HAVE_SIGACTION)
/// The action in place before the outermost watch (Python's own handler, as a rule). Written only
/// while our handler is not installed, on the main thread with the GIL held.
struct sigaction g_chained{};
/// Watches alive; touched on the main thread with the GIL held only.
int g_depth = 0;

extern "C" void dyng_on_sigint(int signum, siginfo_t* info, void* context) {
  g_sigint_seen.store(true, std::memory_order_relaxed);
  if ((g_chained.sa_flags & SA_SIGINFO) != 0) {
    g_chained.sa_sigaction(signum, info, context);
  } else if (g_chained.sa_handler != SIG_DFL && g_chained.sa_handler != SIG_IGN) {
    g_chained.sa_handler(signum);
  }
}

bool is_ours(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) != 0 && action.sa_sigaction == &dyng_on_sigint;
}

/// True for the thread the interpreter runs signal handlers in (and raises KeyboardInterrupt in).
bool on_main_thread() {
  const nanobind::object main = nanobind::module_::import_("threading").attr("main_thread")();
  return nanobind::cast<unsigned long>(main.attr("ident")) == PyThread_get_thread_ident();
}

/// Puts our handler over the current one; false when SIGINT is ignored or left at its default
/// action, which a call must not change.
bool install() {
  struct sigaction current{};
  if (sigaction(SIGINT, nullptr, &current) != 0) return false;
  if ((current.sa_flags & SA_SIGINFO) == 0 &&
      (current.sa_handler == SIG_IGN || current.sa_handler == SIG_DFL)) {
    return false;
  }
  // Still ours only if a restore failed; g_chained then still holds what it replaced. (Another
  // dyng module's handler is not ours: it is chained to like any other.)
  if (is_ours(current)) return true;
  g_chained = current;
  struct sigaction mine{};
  mine.sa_sigaction = &dyng_on_sigint;
  mine.sa_mask = current.sa_mask;
  mine.sa_flags = (current.sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
  g_sigint_seen.store(false, std::memory_order_relaxed);
  return sigaction(SIGINT, &mine, nullptr) == 0;
}

void uninstall() {
  struct sigaction current{};
  // Put the chained handler back only over our own: a handler installed since then stays.
  if (sigaction(SIGINT, nullptr, &current) == 0 && is_ours(current)) {
    sigaction(SIGINT, &g_chained, nullptr);
  }
  g_sigint_seen.store(false, std::memory_order_relaxed);
}
#endif

}  // namespace

sigint_watch_t::sigint_watch_t() {
#if defined(DYNG_HAVE_SIGACTION)
  if (!on_main_thread()) return;
  if (g_depth == 0 && !install()) return;
  ++g_depth;
  watching_ = true;
#endif
}

sigint_watch_t::~sigint_watch_t() {
#if defined(DYNG_HAVE_SIGACTION)
  if (watching_ && --g_depth == 0) uninstall();
#endif
}

cancel_token_t sigint_watch_t::token() const noexcept {
  return watching_ ? cancel_token_t{&g_sigint_seen} : cancel_token_t{};
}

void raise_pending_signals() {
  if (PyErr_CheckSignals() != 0) throw nanobind::python_error();
}

}  // namespace dyng::bindings
