// Stopping a GPU call (Ctrl-C) on its host side: between kernel launches and at the points where
// the host reads counters back, the host polls the stop flag of the calling thread's scope
// (cancel_scope_t, backend/cancel.hpp). A kernel already queued runs to its end: the host waits for
// the stream before it throws, so that nothing is still writing memory that the unwinding frees
// or a caller's undo restores. A persistent kernel (a whole search in one launch) is therefore
// stopped only once it ends.
#pragma once

namespace dyng::cuda {

/// Waits for `stream` and throws interrupted_error, naming `fn`, when the calling thread's call
/// was asked to stop; otherwise returns at once.
void throw_if_cancelled_on(void* stream, const char* fn);

}  // namespace dyng::cuda
