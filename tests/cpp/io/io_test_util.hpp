// Scratch files for the io tests: a fresh folder per process under the system temp folder.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dyng/io/edge_table.hpp"

namespace dyng_test {

/// A column's elements as a vector, to compare with a literal.
template <class T>
std::vector<T> values(const dyng::io::column_t<T>& c) {
  return std::vector<T>(c.begin(), c.end());
}

/// The table's source and target ids, whatever their width.
inline std::vector<int64_t> srcs(const dyng::io::edge_table_t& t) {
  std::vector<int64_t> v;
  for (int64_t e = 0; e < t.size(); ++e) v.push_back(t.src_at(e));
  return v;
}
inline std::vector<int64_t> dsts(const dyng::io::edge_table_t& t) {
  std::vector<int64_t> v;
  for (int64_t e = 0; e < t.size(); ++e) v.push_back(t.dst_at(e));
  return v;
}

inline std::string scratch_dir() {
  static const std::string dir = [] {
    auto d =
        std::filesystem::temp_directory_path() / ("dyng_io_test_" + std::to_string(::getpid()));
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d.string();
  }();
  return dir;
}

/// Writes `text` to <scratch>/<name> and returns the path.
inline std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = scratch_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace dyng_test
