// The log's sink (log.hpp): stderr, one write per line.
#include "dyng/core/log.hpp"

#include <cstdio>
#include <mutex>

namespace dyng {
namespace {

const char* level_name(log_level_t level) {
  switch (level) {
    case log_level_t::error: return "error";
    case log_level_t::warn: return "warning";
    case log_level_t::info: return "info";
    case log_level_t::debug: return "debug";
    case log_level_t::trace: return "trace";
    default: return "log";
  }
}

std::mutex& sink_lock() {
  static std::mutex lock;
  return lock;
}

}  // namespace

void set_log_level(log_level_t level) noexcept {
  g_log_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

log_level_t get_log_level() noexcept {
  return static_cast<log_level_t>(g_log_level.load(std::memory_order_relaxed));
}

void write_log(log_level_t level, const std::string& message) noexcept {
  try {
    const std::string line = std::string("dyng: ") + level_name(level) + ": " + message + "\n";
    const std::lock_guard<std::mutex> hold(sink_lock());
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
  } catch (...) {
    // A log line that cannot be built (no memory) is dropped: logging never fails a call.
  }
}

}  // namespace dyng
