// The one way dyng writes a file. The contents go to a temporary file first and reach the
// target only when all of them were written, so a failed or interrupted write never leaves a
// partial file under the target's name: the target keeps its old contents or, if it is new,
// does not appear. What the target is (through symbolic links), which metadata it keeps and
// which folders are made for it: write_target.hpp. How and when the finished file is put in
// place, alone or together with others, and the one window that remains (a file with other
// hard links is rewritten in place): write_group.hpp.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dyng/io/write_target.hpp"

namespace dyng::io {

/// A buffered writer of one file. commit() puts it in place (or stages it in the thread's
/// open write_group); destruction without commit() removes the temporary file and any folder
/// made for it. Errors throw file_format_error naming the target path and what to do.
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

  /// Writes what is buffered and flushes it to the device, then puts the file in place or
  /// stages it in the thread's innermost open write_group.
  void commit();

 private:
  static constexpr size_t k_flush_bytes = size_t{1} << 20;
  void open_output();
  bool open_replacement();
  void open_in_place();
  void flush();

  write_target_t target_;
  const char* function_;
  int fd_ = -1;
  int target_fd_ = -1;
  std::string temp_;
  int64_t size_ = 0;
  bool done_ = false;
  std::vector<char> buffer_;
};

}  // namespace dyng::io
