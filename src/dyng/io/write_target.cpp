// resolve_write_target: stat() first, so that a pipe or a device reached through any link
// (/dev/stdout -> /proc/self/fd/1 -> "pipe:[...]") is written as it is; then the links of a
// regular or missing file are followed one by one (lstat/readlink), because rename() replaces
// the link it is given, never the file behind it.
#include "dyng/io/write_target.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "dyng/core/errors.hpp"
#include "dyng/io/text_blocks.hpp"

namespace dyng::io {
namespace {

// The kernel's own limit on links followed in one path (MAXSYMLINKS).
constexpr int k_max_links = 40;

[[noreturn]] void fail(const char* function, const std::string& path, const std::string& text) {
  throw file_format_error(path, 0, 0, std::string(function) + "(): " + where(path, 0, 0) + text);
}

const char* advice(int err) {
  switch (err) {
    case EACCES:
    case EPERM: return "check that you may write the file and its folder (their permissions)";
    case EROFS: return "the file system is read-only; write somewhere else";
    case ENOSPC:
    case EDQUOT: return "free space on that device (or raise the quota) and write again";
    case EFBIG:
      return "the file would pass a size limit of the process or the file system; raise the "
             "limit or write somewhere else";
    case EISDIR: return "a folder is in the way; pass a file name";
    case ENOTDIR:
      return "a file is in the way of a folder on the path; remove it or pass another path";
    case ELOOP: return "the symbolic links form a loop or a chain longer than 40; fix the link";
    case ENAMETOOLONG: return "pass a shorter path";
    case ENOENT: return "check that the folder exists";
    default: return "check the path and the device";
  }
}

// Where the link at `link` points, relative links taken from the link's own folder.
std::string link_target(const std::string& link, const char* function, const std::string& path) {
  std::string target(256, '\0');
  for (;;) {
    const ssize_t n = ::readlink(link.c_str(), target.data(), target.size());
    if (n < 0) throw_write_error(function, path, "cannot read the symbolic link " + link, errno);
    if (static_cast<size_t>(n) < target.size()) {
      target.resize(static_cast<size_t>(n));
      break;
    }
    target.resize(target.size() * 2);
  }
  return !target.empty() && target[0] == '/' ? target : folder_of(link) + target;
}

// Makes the missing folders of `t.resolved`, outermost first, recording them in the target.
void make_folders(write_target_t& t, const char* function) {
  const std::string folder = folder_of(t.resolved);
  for (size_t i = 1; i < folder.size(); ++i) {
    if (folder[i] != '/') continue;
    const std::string prefix = folder.substr(0, i);
    if (::mkdir(prefix.c_str(), 0777) == 0) {
      t.created_folders.push_back(prefix);
      continue;
    }
    int err = errno;
    struct stat st;
    if (err == EEXIST) {
      if (::stat(prefix.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
      err = ENOTDIR;
    }
    remove_created_folders(t.created_folders);
    throw_write_error(function, t.path, "cannot make the folder " + prefix, err);
  }
}

// A missing target's folder: made when the caller named the target (as 0.2 did); a dangling
// link into a missing folder is a mistake to report, as 0.2 reported it.
void prepare_folder(write_target_t& t, const char* function, bool via_link) {
  const std::string folder = folder_of(t.resolved);
  if (folder.empty()) return;
  struct stat st;
  if (::stat(folder.c_str(), &st) == 0) return;  // a folder: the trailing '/' says so
  const int err = errno;
  if (err != ENOENT) throw_write_error(function, t.path, "cannot reach its folder", err);
  if (via_link)
    fail(function, t.path,
         "is a symbolic link to " + t.resolved +
             ", whose folder does not exist; make the folder or point the link elsewhere");
  make_folders(t, function);
}

}  // namespace

std::string folder_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

void throw_write_error(const char* function, const std::string& path, const std::string& what,
                       int err) {
  fail(function, path, what + " (" + std::strerror(err) + "); " + advice(err));
}

void remove_created_folders(const std::vector<std::string>& folders) noexcept {
  for (auto it = folders.rbegin(); it != folders.rend(); ++it) ::rmdir(it->c_str());
}

write_target_t resolve_write_target(const std::string& path, const char* function) {
  write_target_t t;
  t.path = path;
  if (path.empty()) fail(function, path, "the path is empty; pass a file name");
  if (path.back() == '/') fail(function, path, "the path names a folder; pass a file name");
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw_write_error(function, path, "is a folder", EISDIR);
    if (!S_ISREG(st.st_mode)) {
      t.resolved = path;
      t.how = publish_t::direct;
      t.existing = st;
      return t;
    }
  }
  std::string current = path;
  for (int hop = 0; hop <= k_max_links; ++hop) {
    if (::lstat(current.c_str(), &st) != 0) {
      const int err = errno;
      if (err != ENOENT) throw_write_error(function, path, "cannot look the file up", err);
      t.resolved = current;
      t.how = publish_t::rename_new;
      prepare_folder(t, function, hop > 0);
      return t;
    }
    if (S_ISLNK(st.st_mode)) {
      current = link_target(current, function, path);
      continue;
    }
    // Reached only when the file changed since stat() above; treat it as stat() would have.
    if (S_ISDIR(st.st_mode)) throw_write_error(function, path, "is a folder", EISDIR);
    t.resolved = current;
    t.existing = st;
    t.how = !S_ISREG(st.st_mode) ? publish_t::direct
            : st.st_nlink > 1    ? publish_t::copy_in
                                 : publish_t::rename_over;
    return t;
  }
  throw_write_error(function, path, "cannot follow its symbolic links", ELOOP);
}

}  // namespace dyng::io
