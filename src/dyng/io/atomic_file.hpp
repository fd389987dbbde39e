// The one way dyng writes a file: into a temporary file next to the target, renamed over it
// only when everything was written, so a failed or interrupted write never leaves a truncated
// file under the target's name.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dyng::io {

/// A buffered writer of one file. commit() publishes it; destruction without commit() removes
/// the temporary file. Errors throw file_format_error naming the target path.
class atomic_file {
 public:
  atomic_file(std::string path, const char* function);
  ~atomic_file();
  atomic_file(const atomic_file&) = delete;
  atomic_file& operator=(const atomic_file&) = delete;

  void put(std::string_view text) {
    if (buffer_.size() + text.size() > k_flush_bytes) flush();
    buffer_.insert(buffer_.end(), text.begin(), text.end());
  }
  void put(char c) {
    if (buffer_.size() + 1 > k_flush_bytes) flush();
    buffer_.push_back(c);
  }
  void put_int(int64_t v) {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, v);
    put(std::string_view(digits, static_cast<size_t>(r.ptr - digits)));
  }

  /// Writes what is buffered, flushes to the file system and renames over the target.
  void commit();

 private:
  static constexpr size_t k_flush_bytes = size_t{1} << 20;
  void flush();
  [[noreturn]] void fail(const std::string& what);

  std::string path_;
  std::string temp_;
  const char* function_;
  int fd_ = -1;
  std::vector<char> buffer_;
};

}  // namespace dyng::io
