// atomic_file: mkstemp in the target's folder (a rename is atomic only within one file system),
// write, fsync, rename. The temporary name starts with '.' so a half-written file is hidden.
#include "dyng/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "dyng/core/errors.hpp"
#include "dyng/io/text_blocks.hpp"

namespace dyng::io {

atomic_file::atomic_file(std::string path, const char* function)
    : path_(std::move(path)), function_(function) {
  const size_t slash = path_.find_last_of('/');
  const std::string folder = slash == std::string::npos ? std::string() : path_.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path_ : path_.substr(slash + 1);
  if (name.empty()) fail("the path names a folder, not a file");
  std::string templ = folder + "." + name + ".tmp-XXXXXX";
  fd_ = ::mkstemp(templ.data());
  if (fd_ < 0) fail(std::string("cannot create a file in its folder (") + std::strerror(errno) + ")");
  temp_ = templ;
  // mkstemp creates 0600; a written file should get the usual permissions (umask applies).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
  buffer_.reserve(k_flush_bytes);
}

atomic_file::~atomic_file() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void atomic_file::fail(const std::string& what) {
  throw file_format_error(path_, 0, 0,
                          std::string(function_) + "(): " + where(path_, 0, 0) + what +
                              "; check that the folder exists and is writable");
}

void atomic_file::flush() {
  const char* p = buffer_.data();
  size_t left = buffer_.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(std::string("writing failed (") + std::strerror(errno) + ")");
    p += n;
    left -= static_cast<size_t>(n);
  }
  buffer_.clear();
}

void atomic_file::commit() {
  flush();
  if (::fsync(fd_) != 0) fail(std::string("flushing failed (") + std::strerror(errno) + ")");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(std::string("closing failed (") + std::strerror(errno) + ")");
  if (std::rename(temp_.c_str(), path_.c_str()) != 0)
    fail(std::string("cannot replace the file (") + std::strerror(errno) + ")");
  temp_.clear();
}

}  // namespace dyng::io
