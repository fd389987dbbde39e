// Argument checks that every algorithm shares, so that each is worded once.
#pragma once

#include <cstdint>
#include <string>

#include "dyng/core/errors.hpp"

namespace dyng {

/// Throws invalid_argument_error unless `value` names a vertex of a graph with `n` vertices.
/// `what` is the argument's name ("source"), `fn` the public call ("sssp.compute()").
inline void check_vertex_id(int64_t value, int64_t n, const char* fn, const char* what) {
  if (value >= 0 && value < n) return;
  throw invalid_argument_error(std::string(fn) + ": " + what + " " + std::to_string(value) +
                               " is not a vertex of this graph, which has " + std::to_string(n) +
                               " vertices; pass a " + what + " in [0, " + std::to_string(n) + ")");
}

}  // namespace dyng
