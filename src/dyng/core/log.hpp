// The library's log: the levels of dyng.set_log_level, one line per message on stderr,
// "dyng: <level>: <message>". Library code prints nothing else (STYLE.md); a message is built
// only when its level is on, so a call site costs one relaxed load and a branch otherwise.
//
// What logs where: info for what changes cost or memory behind the caller's back (a repair
// given up for a recompute, a re-layout of graph storage, a whole upload to a device), debug for
// the route a call took (backend, method, path, work), trace for per-step detail.
#pragma once

#include <atomic>
#include <string>

namespace dyng {

enum class log_level_t : int { off = 0, error = 1, warn = 2, info = 3, debug = 4, trace = 5 };

/// The level in force (set_log_level); read on every call site, hence inline. (Not in a
/// `detail` namespace: the tests' `using namespace` of dyng and an algorithm would make theirs
/// ambiguous.)
inline std::atomic<int> g_log_level{static_cast<int>(log_level_t::warn)};

/// True when messages of `level` are written.
inline bool log_enabled(log_level_t level) noexcept {
  return level != log_level_t::off &&
         static_cast<int>(level) <= g_log_level.load(std::memory_order_relaxed);
}

void set_log_level(log_level_t level) noexcept;
log_level_t get_log_level() noexcept;

/// Writes one line to stderr (whole, under a lock, so lines of several threads do not mix).
void write_log(log_level_t level, const std::string& message) noexcept;

/// Writes make() when `level` is on; make is not called otherwise.
template <class F>
void log(log_level_t level, F&& make) {
  if (log_enabled(level)) write_log(level, make());
}

}  // namespace dyng
