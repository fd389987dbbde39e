// Where a write lands. dyng's writers replace a file's contents, not the file: a symbolic link
// stays a link and the file it ends at (through relative and chained links) gets the new
// contents; that file keeps its mode, owner, group and hard links; a new file gets the mode a
// plain open() gives under the umask (and the folder's default ACL); missing parent folders of
// a path that is not a link are made, as dyng 0.2 made them. This file decides, before any
// content is produced, how the contents will reach the target (publish_t), so that nothing the
// writer computes can fail after the target was touched.
#pragma once

#include <sys/stat.h>

#include <string>
#include <vector>

namespace dyng::io {

/// How a file written in full reaches its target.
enum class publish_t {
  /// No file there yet: a temporary file beside it is renamed to its name.
  rename_new,
  /// A regular file with no other hard link: a temporary file beside it, given the target's
  /// mode, owner and group, is renamed over it (atomic).
  rename_over,
  /// A regular file with other hard links, or one whose owner or group the writer cannot give
  /// a new file, or one in a folder the writer may not create files in: its own inode is
  /// rewritten from a complete temporary copy (see write_group.hpp for the window this leaves).
  copy_in,
  /// Not a regular file (a pipe, a terminal, /dev/null): written as the writer goes; there is
  /// no old content to keep.
  direct,
};

/// The file a write of `path` changes, and how.
struct write_target_t {
  /// As the caller named it: the path every message shows.
  std::string path;
  /// The file the symbolic links end at (equal to `path` when it is no link).
  std::string resolved;
  publish_t how = publish_t::rename_new;
  /// The target's status (rename_over, copy_in).
  struct stat existing{};
  /// Folders made for the target, outermost first; removed again if the write is abandoned.
  std::vector<std::string> created_folders;
};

/// Follows `path`'s symbolic links and decides how a write reaches the file they end at,
/// making the missing parent folders of a path that is no link. Throws file_format_error
/// (see throw_write_error) for a path that names a folder, a file in the way of a folder, a
/// dangling link whose folder is missing, a loop of links or a folder that cannot be made.
write_target_t resolve_write_target(const std::string& path, const char* function);

/// Removes `folders` (outermost first, as made) innermost first, each only if still empty.
void remove_created_folders(const std::vector<std::string>& folders) noexcept;

/// The folder part of `path` with its trailing '/', or "" for a bare name.
std::string folder_of(const std::string& path);

/// Throws file_format_error "<function>(): <path>: <what> (<strerror(err)>); <what to do>",
/// the advice chosen by `err` (permissions, space, a folder or file in the way, ...).
[[noreturn]] void throw_write_error(const char* function, const std::string& path,
                                    const std::string& what, int err);

}  // namespace dyng::io
