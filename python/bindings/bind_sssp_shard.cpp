// The per-rank steps of dyng.distributed's sssp on a rank's shard (sssp/sssp_shard.hpp):
// the owned search, the length scan, and the repair's cut walk and in-row reads, all on the
// shard's rows in place. The Python rounds (python/dyng/distributed/_sssp_rounds.py) check their
// arguments; the checks here guard the memory the kernels write.
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nanobind/stl/tuple.h>

#include "arrays.hpp"
#include "dyng/sssp/sssp_shard.hpp"
#include "handles.hpp"
#include "module.hpp"

namespace dyng::bindings {
namespace {

/// A writable int64 array, for the slice of the tree the search updates in place.
using tree_array_t = nb::ndarray<int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

/// A writable bool array: the rounds' active set, or the cut mask.
using active_array_t = nb::ndarray<bool, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

using offers_t = std::tuple<out_array_t, out_array_t, out_array_t>;

offers_t search(const graph_handle_t& h, int objective, int64_t first, tree_array_t distances,
                tree_array_t parents, active_array_t active, int64_t bound, int64_t max_length) {
  constexpr const char* fn = "sssp_shard_search";
  sssp::detail::owned_search_out_t out;
  std::visit(
      [&](const auto& g) {
        const auto count = static_cast<int64_t>(distances.shape(0));
        nb::gil_scoped_release release;
        const auto lock = h.lock_host_rows();
        if (first < 0 || static_cast<int64_t>(parents.shape(0)) != count ||
            static_cast<int64_t>(active.shape(0)) != count) {
          throw invalid_argument_error(
              std::string(fn) + "(): the owned range [" + std::to_string(first) + ", " +
              std::to_string(first + count) + ") with " + std::to_string(parents.shape(0)) +
              " parents and " + std::to_string(active.shape(0)) +
              " active flags is not a tree slice; pass one of each per owned vertex");
        }
        sssp::detail::owned_tree_t tree{first, count, distances.data(), parents.data(),
                                        active.data()};
        sssp::shard_search(g, objective, tree, bound, max_length, out);
      },
      h.graph);
  return {to_numpy(std::move(out.offer_targets)), to_numpy(std::move(out.offer_distances)),
          to_numpy(std::move(out.offer_sources))};
}

void take_offers(int64_t first, tree_array_t distances, tree_array_t parents, active_array_t active,
                 const in_array_t& targets, const in_array_t& offered, const in_array_t& sources) {
  constexpr const char* fn = "sssp_shard_take_offers";
  const auto to = as_span<int64_t>(targets, fn, "targets");
  const auto at_distance = as_span<int64_t>(offered, fn, "distances");
  const auto from = as_span<int64_t>(sources, fn, "sources");
  const auto count = static_cast<int64_t>(distances.shape(0));
  if (static_cast<int64_t>(parents.shape(0)) != count ||
      static_cast<int64_t>(active.shape(0)) != count || at_distance.size() != to.size() ||
      from.size() != to.size()) {
    throw invalid_argument_error(std::string(fn) +
                                 "(): the tree's arrays or the offers' arrays differ in length; "
                                 "pass one of each per owned vertex and per offer");
  }
  sssp::detail::owned_tree_t tree{first, count, distances.data(), parents.data(), active.data()};
  nb::gil_scoped_release release;
  sssp::detail::take_offers(tree, to, at_distance, from);
}

/// A cut walk's count, its children on other ranks and their parents, and the positions cut.
using cut_t = std::tuple<int64_t, out_array_t, out_array_t, out_array_t>;

cut_t cut(const graph_handle_t& h, int64_t first, tree_array_t parents, active_array_t mask,
          const in_array_t& roots, int64_t limit) {
  constexpr const char* fn = "sssp_shard_cut";
  const auto root_span = as_span<int64_t>(roots, fn, "roots");
  sssp::detail::cut_offers_t out;
  int64_t count = 0;
  std::visit(
      [&](const auto& g) {
        const auto size = static_cast<int64_t>(parents.shape(0));
        nb::gil_scoped_release release;
        const auto lock = h.lock_host_rows();
        if (first < 0 || static_cast<int64_t>(mask.shape(0)) != size) {
          throw invalid_argument_error(std::string(fn) +
                                       "(): the owned range or the mask does not fit the shard; "
                                       "pass one parent and one flag per owned vertex");
        }
        for (const int64_t at : root_span) {
          if (at < 0 || at >= size) {
            throw invalid_argument_error(std::string(fn) + "(): root position " +
                                         std::to_string(at) + " is outside the owned range");
          }
        }
        sssp::detail::owned_tree_t tree{first, size, nullptr, parents.data(), nullptr};
        count = sssp::shard_cut(g, tree, mask.data(), root_span, limit, out);
      },
      h.graph);
  return {count, to_numpy(std::move(out.children)), to_numpy(std::move(out.parents)),
          to_numpy(std::move(out.cut))};
}

std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t> lengths(const graph_handle_t& h,
                                                                         int objective) {
  sssp::detail::shard_lengths_t scanned;
  std::visit(
      [&](const auto& g) {
        nb::gil_scoped_release release;
        const auto lock = h.lock_host_rows();
        scanned = sssp::shard_lengths(g, objective);
      },
      h.graph);
  return {scanned.edges,      scanned.total,   scanned.max_length,
          scanned.min_length, scanned.min_src, scanned.min_dst};
}

offers_t offers_into(const graph_handle_t& h, int objective, int64_t first,
                     const in_array_t& distances, const in_array_t& targets) {
  constexpr const char* fn = "sssp_shard_offers_into";
  const auto dist = as_span<int64_t>(distances, fn, "distances");
  const auto ids = as_span<int64_t>(targets, fn, "targets");
  sssp::detail::owned_search_out_t out;
  // Read only: the offers leave the tree as it is (take_offers applies them at the owners).
  sssp::detail::owned_tree_t tree{first, static_cast<int64_t>(dist.size()),
                                  const_cast<int64_t*>(dist.data()), nullptr, nullptr};
  std::visit(
      [&](const auto& g) {
        nb::gil_scoped_release release;
        const auto lock = h.lock_host_rows();
        sssp::shard_offers_into(g, objective, tree, ids, out);
      },
      h.graph);
  return {to_numpy(std::move(out.offer_targets)), to_numpy(std::move(out.offer_distances)),
          to_numpy(std::move(out.offer_sources))};
}

}  // namespace

void bind_sssp_shard(nb::module_& m) {
  m.def("sssp_shard_search", &search, nb::arg("graph"), nb::arg("objective"), nb::arg("first"),
        nb::arg("distances"), nb::arg("parents"), nb::arg("active"), nb::arg("bound"),
        nb::arg("max_length") = 0,
        "Dijkstra over the owned vertices [first, first + len(distances)) of a shard from its "
        "active vertices below `bound`, updating the int64 distances and parents and the bool "
        "active set in place: the offers to other ranks' vertices (targets, distances, "
        "sources), int64. `max_length` > 0, the rows' largest length, lets Dial's queue serve.");
  m.def("sssp_shard_take_offers", &take_offers, nb::arg("first"), nb::arg("distances"),
        nb::arg("parents"), nb::arg("active"), nb::arg("targets"), nb::arg("offered"),
        nb::arg("sources"),
        "Takes int64 offers (global target, distance, source) into the tree slice starting at "
        "`first`: the lowest (distance, source) pair per target; a lowered target turns active.");
  m.def("sssp_shard_cut", &cut, nb::arg("graph"), nb::arg("first"), nb::arg("parents"),
        nb::arg("mask"), nb::arg("roots"), nb::arg("limit"),
        "Cuts the subtrees below the int64 root positions on this shard into the bool `mask`, "
        "at most `limit` vertices: (count cut, children on other ranks, their cut parents, "
        "the positions cut).");
  m.def("sssp_shard_lengths", &lengths, nb::arg("graph"), nb::arg("objective"),
        "(edges, sum, largest length, smallest length, its edge's source, its edge's target) "
        "of a shard's "
        "objective column (-1 ends when the shard has no edges).");
  m.def("sssp_shard_offers_into", &offers_into, nb::arg("graph"), nb::arg("objective"),
        nb::arg("first"), nb::arg("distances"), nb::arg("targets"),
        "The int64 offers (targets, distances, sources) of the shard's edges into int64 "
        "`targets` from the owned vertices [first, first + len(distances)) with a distance.");
}

}  // namespace dyng::bindings
