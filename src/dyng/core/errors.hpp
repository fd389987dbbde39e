// Error classes of libdyng. Each maps one-to-one onto a Python class of the spec (section 9);
// the bindings translate them, so C++ code only ever throws one of these (or std::bad_alloc).
// Message form: "<function>(): <what is wrong>; <what to do>", naming the offending value.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace dyng {

/// Base of every error libdyng throws on purpose.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A caller passed a value outside the documented domain (Python: InvalidArgumentError).
class invalid_argument_error : public error {
 public:
  using error::error;
};

/// A result no longer matches its graph's version (Python: StaleResultError).
class stale_result_error : public invalid_argument_error {
 public:
  using invalid_argument_error::invalid_argument_error;
};

/// A feature, type combination or backend that this build does not offer (NotSupportedError).
class not_supported_error : public error {
 public:
  using error::error;
};

/// A size limit of a type or container was exceeded (Python: CapacityError).
class capacity_error : public error {
 public:
  using error::error;
};

/// An iterative method stopped before reaching its fixed point (Python: ConvergenceError).
class convergence_error : public error {
 public:
  using error::error;
};

/// A broken invariant inside libdyng: always a bug (Python: InternalError).
class internal_error : public error {
 public:
  using error::error;
};

/// Device or host allocation failed with a known size (Python: OutOfMemoryError).
class out_of_memory_error : public error {
 public:
  using error::error;
};

/// A CUDA runtime call failed (Python: CudaError, with `code`).
class cuda_error : public error {
 public:
  cuda_error(int code, const std::string& message) : error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// The caller asked a running call to stop (backend/cancel.hpp); the call undid what it had
/// changed before throwing (Python: KeyboardInterrupt, raised by the interpreter's own handler).
class interrupted_error : public error {
 public:
  using error::error;
};

/// A file could not be read or parsed (Python: FileFormatError, with `path`, `line`, `column`).
/// line and column are 1-based; 0 means "not tied to one line" (a missing file, a count that
/// disagrees with the header) or "the whole line".
class file_format_error : public error {
 public:
  file_format_error(std::string path, int64_t line, int64_t column, const std::string& message)
      : error(message), path_(std::move(path)), line_(line), column_(column) {}
  const std::string& path() const noexcept { return path_; }
  int64_t line() const noexcept { return line_; }
  int64_t column() const noexcept { return column_; }

 private:
  std::string path_;
  int64_t line_;
  int64_t column_;
};

}  // namespace dyng
