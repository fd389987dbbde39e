// The row operations of edge_table_t that readers build it with.
#include "dyng/io/edge_table.hpp"

#include <cstring>

namespace dyng::io {
namespace {

template <class T>
void move_column(column_t<T>& c, int64_t from, int64_t to, int64_t count, int per_row = 1) {
  std::memmove(c.data() + to * per_row, c.data() + from * per_row,
               static_cast<size_t>(count) * per_row * sizeof(T));
}

}  // namespace

void edge_table_t::resize(int64_t rows) {
  const auto n = static_cast<size_t>(rows);
  with_ids([n](auto& src, auto& dst) {
    src.resize(n);
    dst.resize(n);
  });
  weights.resize(n * static_cast<size_t>(num_weights));
  if (timed) timestamps.resize(n);
}

void edge_table_t::move_rows(int64_t from, int64_t to, int64_t count) {
  with_ids([&](auto& src, auto& dst) {
    move_column(src, from, to, count);
    move_column(dst, from, to, count);
  });
  move_column(weights, from, to, count, num_weights);
  if (timed) move_column(timestamps, from, to, count);
}

void edge_table_t::widen() {
  if (wide) return;
  const auto n = static_cast<size_t>(src32.size());
  src64.resize(n);
  dst64.resize(n);
  for (size_t e = 0; e < n; ++e) {
    src64[e] = src32[e];
    dst64[e] = dst32[e];
  }
  column_t<uint32_t>().swap(src32);
  column_t<uint32_t>().swap(dst32);
  wide = true;
}

}  // namespace dyng::io
