// staged_file and write_group: rename() or an in-place copy, and the thread's stack of groups.
#include "dyng/io/write_group.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <set>
#include <utility>

namespace dyng::io {
namespace {

thread_local write_group* t_current = nullptr;

constexpr size_t k_copy_bytes = size_t{1} << 20;

void close_quietly(int& fd) noexcept {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Makes a rename durable: the folder's entry is flushed too (best effort; some file systems
// refuse fsync on a folder, and the rename has happened either way).
void sync_folder(const std::string& file) noexcept {
  const std::string folder = folder_of(file);
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// Writes all of [data, data + n) at `offset`, retrying short and interrupted writes.
bool write_all_at(int fd, const char* data, size_t n, off_t offset) {
  while (n > 0) {
    const ssize_t w = ::pwrite(fd, data, n, offset);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
    offset += w;
  }
  return true;
}

}  // namespace

staged_file::staged_file(write_target_t target, const char* function, std::string temp, int temp_fd,
                         int target_fd, int64_t size)
    : target_(std::move(target)),
      function_(function),
      temp_(std::move(temp)),
      temp_fd_(temp_fd),
      target_fd_(target_fd),
      size_(size) {}

staged_file::staged_file(staged_file&& other) noexcept
    : target_(std::move(other.target_)),
      function_(other.function_),
      temp_(std::move(other.temp_)),
      temp_fd_(std::exchange(other.temp_fd_, -1)),
      target_fd_(std::exchange(other.target_fd_, -1)),
      size_(other.size_),
      pending_(std::exchange(other.pending_, false)) {
  other.temp_.clear();
  other.target_.created_folders.clear();
}

staged_file::~staged_file() { discard(); }

void staged_file::close_files() noexcept {
  close_quietly(temp_fd_);
  close_quietly(target_fd_);
}

void staged_file::discard() noexcept {
  close_files();
  if (!pending_) return;
  pending_ = false;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  remove_created_folders(target_.created_folders);
}

void staged_file::publish() {
  if (!pending_) return;
  if (rewrites_in_place()) copy_into_place();
  else rename_into_place();
  pending_ = false;
  close_files();
}

void staged_file::rename_into_place() {
  if (std::rename(temp_.c_str(), target_.resolved.c_str()) != 0) {
    const int err = errno;
    discard();
    throw_write_error(function_, target_.path, "cannot put the new file in place", err);
  }
}

void staged_file::copy_into_place() {
  auto fail = [&](const std::string& what) {
    const int err = errno;
    discard();
    throw_write_error(function_, target_.path, what, err);
  };
  // Reserve first: running out of space must happen before the first byte is overwritten.
#if defined(FALLOC_FL_KEEP_SIZE)
  if (size_ > 0 && ::fallocate(target_fd_, FALLOC_FL_KEEP_SIZE, 0, size_) != 0 &&
      (errno == ENOSPC || errno == EDQUOT || errno == EFBIG))
    fail("no room for the new contents, the file is unchanged");
#endif
  std::vector<char> block(k_copy_bytes);
  for (off_t offset = 0; offset < size_;) {
    const ssize_t n = ::pread(temp_fd_, block.data(), block.size(), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;  // the temporary file is shorter than what was written to it
      fail("rewriting the file in place failed partway, its contents are incomplete");
    }
    if (!write_all_at(target_fd_, block.data(), static_cast<size_t>(n), offset))
      fail("rewriting the file in place failed partway, its contents are incomplete");
    offset += n;
  }
  if (::ftruncate(target_fd_, size_) != 0)
    fail("rewriting the file in place failed at its end, its contents are incomplete");
  if (::fsync(target_fd_) != 0) fail("flushing the rewritten file failed");
}

write_group::write_group() : outer_(t_current) { t_current = this; }

write_group::~write_group() {
  discard();
  t_current = outer_;
}

write_group* write_group::current() noexcept { return t_current; }

void write_group::stage(staged_file file) { files_.push_back(std::move(file)); }

void write_group::discard() noexcept {
  for (auto it = files_.rbegin(); it != files_.rend(); ++it) it->discard();
  files_.clear();
}

void write_group::commit() {
  std::vector<staged_file> files = std::move(files_);
  files_.clear();
  if (outer_ != nullptr) {
    for (staged_file& f : files) outer_->stage(std::move(f));
    return;
  }
  // In-place rewrites are the steps that can still fail: run them before any rename.
  std::vector<staged_file*> order;
  for (staged_file& f : files)
    if (f.rewrites_in_place()) order.push_back(&f);
  for (staged_file& f : files)
    if (!f.rewrites_in_place()) order.push_back(&f);
  try {
    for (staged_file* f : order) f->publish();
  } catch (...) {
    for (auto it = files.rbegin(); it != files.rend(); ++it) it->discard();
    throw;
  }
  std::set<std::string> folders;
  for (const staged_file& f : files)
    if (!f.rewrites_in_place() && folders.insert(folder_of(f.resolved())).second)
      sync_folder(f.resolved());
}

}  // namespace dyng::io
