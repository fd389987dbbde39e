// atomic_file: the temporary file is made with open(O_CREAT | O_EXCL) under a random hidden
// name beside the target (a rename is atomic only within one file system). A new file is
// created with mode 0666, so that the umask and the folder's default ACL apply exactly as to a
// plain open(); a replacement is created 0600 and given the target's owner, group and mode
// before any content goes in.
#include "dyng/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <random>
#include <utility>

#include "dyng/io/write_group.hpp"

namespace dyng::io {
namespace {

std::string random_suffix() {
  static constexpr char k_chars[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 engine{std::random_device{}() ^
                                      (static_cast<uint64_t>(::getpid()) << 32)};
  std::string s(8, 'x');
  for (char& c : s) c = k_chars[engine() % (sizeof k_chars - 1)];
  return s;
}

// Creates a new file in `folder` named after `name`; -1 with errno set when it cannot.
int create_temporary(const std::string& folder, const std::string& name, mode_t mode,
                     std::string& path) {
  // A long name is cut so that the temporary name stays within NAME_MAX.
  const std::string stem = folder + "." + name.substr(0, 200) + ".tmp-";
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string candidate = stem + random_suffix();
    const int fd = ::open(candidate.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0) {
      path = std::move(candidate);
      return fd;
    }
    if (errno != EEXIST && errno != EINTR) return -1;
  }
  errno = EEXIST;
  return -1;
}

int open_existing(const std::string& path) {
  for (;;) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd >= 0 || errno != EINTR) return fd;
  }
}

// Gives the new file at `fd` the owner, group and mode of `target`; false where not allowed
// (a file owned by someone else, a group the process is not in).
bool take_identity(int fd, const struct stat& target) {
  struct stat mine;
  if (::fstat(fd, &mine) != 0) return false;
  if ((mine.st_uid != target.st_uid || mine.st_gid != target.st_gid) &&
      ::fchown(fd, target.st_uid, target.st_gid) != 0)
    return false;
  // After fchown, which clears the set-id bits.
  return ::fchmod(fd, target.st_mode & 07777) == 0;
}

// Where a temporary copy goes when the target's folder takes no new files.
std::string scratch_folder() {
  const char* tmp = std::getenv("TMPDIR");
  std::string folder = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  if (folder.back() != '/') folder += '/';
  return folder;
}

}  // namespace

atomic_file::atomic_file(std::string path, const char* function) : function_(function) {
  target_ = resolve_write_target(path, function);
  try {
    open_output();
  } catch (...) {
    if (fd_ >= 0) ::close(fd_);
    if (target_fd_ >= 0) ::close(target_fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
    remove_created_folders(target_.created_folders);
    throw;
  }
  buffer_.reserve(k_flush_bytes);
}

atomic_file::~atomic_file() {
  if (done_) return;
  if (fd_ >= 0) ::close(fd_);
  if (target_fd_ >= 0) ::close(target_fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
  remove_created_folders(target_.created_folders);
}

void atomic_file::open_output() {
  const std::string& resolved = target_.resolved;
  switch (target_.how) {
    case publish_t::direct:
      fd_ = open_existing(resolved);
      if (fd_ < 0) throw_write_error(function_, target_.path, "cannot open it for writing", errno);
      return;
    case publish_t::rename_new:
      fd_ = create_temporary(folder_of(resolved), resolved.substr(folder_of(resolved).size()), 0666,
                             temp_);
      if (fd_ < 0)
        throw_write_error(function_, target_.path, "cannot create a file in its folder", errno);
      return;
    case publish_t::rename_over:
      if (open_replacement()) return;
      target_.how = publish_t::copy_in;
      [[fallthrough]];
    case publish_t::copy_in: open_in_place(); return;
  }
}

bool atomic_file::open_replacement() {
  const std::string& resolved = target_.resolved;
  // A file the process may not open for writing is refused, as open() refuses it, even where
  // its folder would let a new file take its name.
  if (::faccessat(AT_FDCWD, resolved.c_str(), W_OK, AT_EACCESS) != 0)
    throw_write_error(function_, target_.path, "cannot open it for writing", errno);
  fd_ = create_temporary(folder_of(resolved), resolved.substr(folder_of(resolved).size()), 0600,
                         temp_);
  if (fd_ < 0) {
    // A folder closed to new files may hold a file the process may rewrite.
    if (errno == EACCES || errno == EPERM) return false;
    throw_write_error(function_, target_.path, "cannot create a file in its folder", errno);
  }
  if (take_identity(fd_, target_.existing)) return true;
  ::close(std::exchange(fd_, -1));
  ::unlink(temp_.c_str());
  temp_.clear();
  return false;
}

void atomic_file::open_in_place() {
  const std::string& resolved = target_.resolved;
  // Opened now, before any content is made, so that a file the process may not write is
  // reported before the work, and the target is not touched until commit.
  target_fd_ = open_existing(resolved);
  if (target_fd_ < 0)
    throw_write_error(function_, target_.path, "cannot open it for writing", errno);
  const std::string name = resolved.substr(folder_of(resolved).size());
  fd_ = create_temporary(folder_of(resolved), name, 0600, temp_);
  if (fd_ < 0) fd_ = create_temporary(scratch_folder(), name, 0600, temp_);
  if (fd_ < 0)
    throw_write_error(function_, target_.path, "cannot create a temporary copy of the contents",
                      errno);
  // Unlinked at once: only read back by the copy, and nothing to clean up after a crash.
  ::unlink(temp_.c_str());
  temp_.clear();
}

void atomic_file::flush() {
  const char* p = buffer_.data();
  size_t left = buffer_.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_write_error(function_, target_.path, "writing failed", errno);
    p += n;
    left -= static_cast<size_t>(n);
    size_ += n;
  }
  buffer_.clear();
}

void atomic_file::commit() {
  flush();
  if (target_.how == publish_t::direct) {
    done_ = true;
    if (::close(std::exchange(fd_, -1)) != 0)
      throw_write_error(function_, target_.path, "closing failed", errno);
    return;
  }
  if (target_.how != publish_t::copy_in) {
    if (::fsync(fd_) != 0)
      throw_write_error(function_, target_.path, "flushing to the device failed", errno);
    if (::close(std::exchange(fd_, -1)) != 0)
      throw_write_error(function_, target_.path, "closing failed", errno);
  }
  staged_file staged(std::move(target_), function_, std::exchange(temp_, std::string()),
                     std::exchange(fd_, -1), std::exchange(target_fd_, -1), size_);
  done_ = true;
  if (write_group* group = write_group::current()) group->stage(std::move(staged));
  else staged.publish();
}

}  // namespace dyng::io
