// Where the surfer lands when it does not follow an edge: the personalization vector p (a jump,
// with probability 1 - alpha) and the dangling vector d (the next step from a vertex without
// out-edges), networkx.pagerank's `personalization` and `dangling`. This is the one place where
// the option vectors are checked, padded and normalised; compute, update and a device backend
// (on the host, before copying them) all take them from prepare_teleport().
//
// A vector given shorter than the graph is padded with zeros (the vertices it does not name get
// nothing, as the keys missing from NetworkX's dict; after vertex growth the new vertices are the
// ones not named). It is divided by its sum, added in vertex order, so the same vector gives the
// same bits everywhere. An absent vector stays empty: uniform, 1/n each, without n doubles.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "dyng/core/errors.hpp"

namespace dyng::pagerank::detail {

/// The normalised p and d of one call; an empty vector is uniform (1/n each).
struct teleport_t {
  std::vector<double> personalization;  ///< p: n entries summing to 1, or empty (uniform).
  std::vector<double> dangling;         ///< d: n entries summing to 1, or empty (uniform).
  double uniform = 0.0;                 ///< 1/n (0 for the empty graph).

  double personalization_of(int64_t v) const {
    return personalization.empty() ? uniform : personalization[static_cast<size_t>(v)];
  }
  double dangling_of(int64_t v) const {
    return dangling.empty() ? uniform : dangling[static_cast<size_t>(v)];
  }
  /// What x'[v] gets besides the in-edges' shares: alpha * D * d[v] + (1 - alpha) * p[v], D the
  /// rank held by the dangling vertices.
  double constant_part(int64_t v, double alpha, double dangling_mass) const {
    return alpha * dangling_mass * dangling_of(v) + (1.0 - alpha) * personalization_of(v);
  }
};

/// `given` padded to `n` entries and divided by its sum; empty stays empty. Throws
/// invalid_argument_error (naming `field`) for more than n entries, a negative or non-finite
/// entry, or a sum that is 0 or not finite.
inline std::vector<double> normalised_vector(const std::vector<double>& given, int64_t n,
                                             const char* field, const char* fn) {
  if (given.empty()) return {};
  const std::string where = std::string(fn) + ": " + field;
  if (static_cast<int64_t>(given.size()) > n) {
    throw invalid_argument_error(where + " has " + std::to_string(given.size()) +
                                 " entries but the graph has " + std::to_string(n) +
                                 " vertices; pass at most one per vertex (in vertex-id order)");
  }
  double sum = 0.0;
  for (size_t v = 0; v < given.size(); ++v) {
    if (!(std::isfinite(given[v]) && given[v] >= 0.0)) {
      throw invalid_argument_error(where + "[" + std::to_string(v) + "] is " +
                                   std::to_string(given[v]) + "; pass non-negative finite weights");
    }
    sum += given[v];
  }
  if (!(sum > 0.0 && std::isfinite(sum))) {
    throw invalid_argument_error(where + " sums to " + std::to_string(sum) +
                                 "; give some vertex a positive weight (and keep the sum finite)");
  }
  std::vector<double> result(static_cast<size_t>(n), 0.0);
  for (size_t v = 0; v < given.size(); ++v) result[v] = given[v] / sum;
  return result;
}

/// p and d of a graph of `n` vertices from the options' vectors; d is p when not given
/// (NetworkX's default), uniform when neither is.
template <class options_t>
teleport_t prepare_teleport(const options_t& options, int64_t n, const char* fn) {
  teleport_t t;
  t.uniform = n > 0 ? 1.0 / static_cast<double>(n) : 0.0;
  t.personalization = normalised_vector(options.personalization, n, "personalization", fn);
  t.dangling = options.dangling.empty() ? t.personalization
                                        : normalised_vector(options.dangling, n, "dangling", fn);
  return t;
}

/// True when mark_dangling_targets() would mark every vertex (a uniform d moved past the
/// threshold everywhere): a device backend then flags them all at once.
inline bool dangling_targets_are_all(const teleport_t& t, double alpha, double mass,
                                     double threshold) {
  return t.dangling.empty() && alpha * mass > 0.0 && alpha * mass * t.uniform > threshold;
}

/// Calls mark(v) for every vertex whose rank a change of `mass` in the dangling rank D moves by
/// more than `threshold` in one iteration (alpha * mass * d[v]): the frontier's seeds when
/// vertices may have become or stopped being dangling. With a uniform d that is every vertex or
/// none; with a concentrated one, the few vertices d names.
template <class F>
void mark_dangling_targets(const teleport_t& t, int64_t n, double alpha, double mass,
                           double threshold, F mark) {
  const double scale = alpha * mass;
  if (!(scale > 0.0)) return;
  if (t.dangling.empty()) {
    if (scale * t.uniform <= threshold) return;
    for (int64_t v = 0; v < n; ++v) mark(v);
    return;
  }
  for (int64_t v = 0; v < n; ++v) {
    if (scale * t.dangling[static_cast<size_t>(v)] > threshold) mark(v);
  }
}

}  // namespace dyng::pagerank::detail
