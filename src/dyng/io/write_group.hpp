// Files written in full but not yet in place, and the groups that put several of them in place
// together. atomic_file hands every finished file to the innermost write_group open on its
// thread, or puts it in place at once when none is open. A group opened around several writes
// (the CSR triplet's three files, the two files of a change batch, every output of one dyng
// command) makes them appear together: nothing is in place until the group commits, and a
// group closed without commit() removes every temporary file and every folder made for them.
//
// Putting in place (staged_file::publish): a rename for a new file or a file with one name
// (atomic: a reader sees the old file or the new one), a rewrite of the target's own inode for
// a file with other hard links (publish_t::copy_in). The rewrite copies a complete temporary
// file that was written and checked before the target was touched, after reserving the space
// it needs (fallocate, where the file system offers it), so what is left to fail is the copy
// itself: an I/O error, a file system without reservations running out of space, or the
// process being killed (SIGKILL, power loss) during the copy leave the target partly rewritten.
// Ctrl-C does not cut it short: the writers poll for no interrupt. A group puts its in-place
// rewrites first and its renames last, so such a failure leaves every renamed file as it was.
// Neither way copies a target's ACL or extended attributes to the new contents' file: a rename
// drops them (the mode bits, owner and group are kept), an in-place rewrite keeps them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dyng/io/write_target.hpp"

namespace dyng::io {

/// A file written in full, waiting to be put in place. Destroyed while waiting, it removes its
/// temporary file and the folders made for it.
class staged_file {
 public:
  /// `temp` names the temporary file (empty when it has no name: copy_in keeps an unlinked
  /// one open as `temp_fd`); `target_fd` is the open target of a copy_in.
  staged_file(write_target_t target, const char* function, std::string temp, int temp_fd,
              int target_fd, int64_t size);
  staged_file(staged_file&& other) noexcept;
  staged_file(const staged_file&) = delete;
  staged_file& operator=(const staged_file&) = delete;
  staged_file& operator=(staged_file&&) = delete;
  ~staged_file();

  /// Gives the target the new contents. Throws file_format_error; the target is then as it
  /// was, except after a failed in-place rewrite (the message says so).
  void publish();
  /// Removes the temporary file and the folders made for it (idempotent).
  void discard() noexcept;
  bool rewrites_in_place() const noexcept { return target_.how == publish_t::copy_in; }
  const std::string& resolved() const noexcept { return target_.resolved; }

 private:
  void rename_into_place();
  void copy_into_place();
  void close_files() noexcept;

  write_target_t target_;
  const char* function_;
  std::string temp_;
  int temp_fd_;
  int target_fd_;
  int64_t size_;
  bool pending_ = true;
};

/// Collects the files finished on this thread while it is open; see the file comment.
class write_group {
 public:
  /// Opens the group; it is the thread's current group until it is destroyed.
  write_group();
  /// Closes the group, discarding whatever it still holds.
  ~write_group();
  write_group(const write_group&) = delete;
  write_group& operator=(const write_group&) = delete;

  /// The innermost group open on this thread, or nullptr.
  static write_group* current() noexcept;
  /// Takes a finished file.
  void stage(staged_file file);
  /// Puts every file in place (in-place rewrites first), or hands them to the enclosing
  /// group. Throws file_format_error for the first file that fails; files not yet in place
  /// are then discarded.
  void commit();
  /// Discards every file held, newest first (so folders empty before they are removed).
  void discard() noexcept;

 private:
  write_group* outer_;
  std::vector<staged_file> files_;
};

}  // namespace dyng::io
