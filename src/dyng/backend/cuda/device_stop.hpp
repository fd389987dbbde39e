// Stopping a GPU call (Ctrl-C) on its host side: between kernel launches and at the points where
// the host reads counters back, the host polls the stop flag of the calling thread's scope
// (cancel_scope_t, backend/cancel.hpp). A kernel already queued runs to its end: the host waits for
// the stream before it throws, so that nothing is still writing memory that the unwinding frees
// or a caller's undo restores. A persistent kernel (a whole search in one launch) ends early only
// if it polls a stop word in device memory, which synchronize_or_stop() raises while it waits.
#pragma once

namespace dyng::cuda {

/// Waits for `stream` and throws interrupted_error, naming `fn`, when the calling thread's call
/// was asked to stop; otherwise returns at once.
void throw_if_cancelled_on(void* stream, const char* fn);

/// Waits for `stream`. When the calling thread's call is asked to stop while a kernel on it still
/// runs, sets the device int `*stop_word` to nonzero through the copy engine (the kernel holds
/// every multiprocessor, so nothing that needs one could run beside it), waits for the kernel to
/// see the word and leave, and throws interrupted_error naming `fn`.
void synchronize_or_stop(void* stream, int* stop_word, const char* fn);

}  // namespace dyng::cuda
