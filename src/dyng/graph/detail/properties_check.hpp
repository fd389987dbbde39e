// Validation of graph properties shared by the constructors.
#pragma once

#include <cmath>
#include <string>

#include "dyng/core/errors.hpp"
#include "dyng/graph/properties.hpp"

namespace dyng::detail {

/// Headroom above this is almost certainly a unit mistake (percent instead of fraction).
inline constexpr double k_max_headroom = 16.0;

inline void check_properties(const graph_properties_t& props, const char* function) {
  if (props.num_weights < 0 || props.num_weights > k_max_weights) {
    throw invalid_argument_error(std::string(function) + ": num_weights is " +
                                 std::to_string(props.num_weights) + "; pass 0 to " +
                                 std::to_string(k_max_weights) + " weights per edge");
  }
  if (!std::isfinite(props.headroom) || props.headroom < 0.0 || props.headroom > k_max_headroom) {
    throw invalid_argument_error(std::string(function) + ": headroom is " +
                                 std::to_string(props.headroom) +
                                 "; pass a fraction of the row degree in [0, 16], e.g. 0.125");
  }
}

}  // namespace dyng::detail
