// Batches whose arrays are in device memory (CUDA builds): the DLPack reader that describes a
// producer's array, staging on the graph's device (cuda/device_batch.hpp), the algorithms' batch
// rules judged from the staging's facts, and apply() of a staged batch. The Python layer
// (dyng/_device_batch.py) decides when a batch takes this route and words the conversion faults.
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include "dyng/backend/cuda/device_allocator.hpp"
#include "dyng/backend/profile.hpp"
#include "dyng/graph/cuda/device_batch.hpp"
#include "dyng/mosp/mosp.hpp"
#include "dyng/sssp/sssp.hpp"
#include "graph_device.hpp"
#include "handles.hpp"
#include "interrupts.hpp"
#include "module.hpp"

namespace nb = nanobind;

namespace dyng::bindings {
namespace {

/// A batch staged for one graph, of that graph's id type.
struct staged_handle_t {
  std::variant<cuda::staged_batch_t<int32_t>, cuda::staged_batch_t<int64_t>> batch;
};

/// (data pointer, dtype kind 'i'/'u'/'f'/'b'/..., bits, shape, strides in elements, device,
/// None) of a DLPack capsule or producer in CUDA memory. The import is released on return; the
/// pointer stays valid while the caller holds the producer's array (the batch holds it until
/// its apply returns). nanobind cannot hand the imported array back without an owner, hence
/// the None in the place of a holder.
using view_t = std::tuple<uintptr_t, std::string, int, std::vector<int64_t>, std::vector<int64_t>,
                          int, nb::object>;

view_t device_array_view(nb::handle source) {
  auto array = nb::cast<nb::ndarray<nb::ro, nb::device::cuda>>(source);
  const auto dtype = array.dtype();
  std::string kind = "?";
  switch (static_cast<nb::dlpack::dtype_code>(dtype.code)) {
    case nb::dlpack::dtype_code::Int: kind = "i"; break;
    case nb::dlpack::dtype_code::UInt: kind = "u"; break;
    case nb::dlpack::dtype_code::Float: kind = "f"; break;
    case nb::dlpack::dtype_code::Bool: kind = "b"; break;
    case nb::dlpack::dtype_code::Complex: kind = "c"; break;
    default: break;
  }
  std::vector<int64_t> shape, strides;
  for (size_t d = 0; d < array.ndim(); ++d) {
    shape.push_back(static_cast<int64_t>(array.shape(d)));
    strides.push_back(static_cast<int64_t>(array.stride(d)));
  }
  const auto data = reinterpret_cast<uintptr_t>(array.data());
  const int device = array.device_id();
  const int bits = dtype.bits * dtype.lanes;
  return {data, kind, bits, shape, strides, device, nb::none()};
}

/// (data pointer, bits, signed, rows, cols, row stride, col stride); rows 0 for an absent array.
using descriptor_t = std::tuple<uintptr_t, int, bool, int64_t, int64_t, int64_t, int64_t>;

cuda::device_int_array_t array_of(const std::optional<descriptor_t>& d) {
  cuda::device_int_array_t a;
  if (!d) {
    a.rows = 0;
    return a;
  }
  const auto& [data, bits, is_signed, rows, cols, row_stride, col_stride] = *d;
  a.data = reinterpret_cast<const void*>(data);
  a.bits = bits;
  a.is_signed = is_signed;
  a.rows = rows;
  a.cols = cols;
  a.row_stride = row_stride;
  a.col_stride = col_stride;
  return a;
}

using maybe_descriptor_t = std::optional<descriptor_t>;

std::unique_ptr<staged_handle_t> stage(graph_handle_t& h, const maybe_descriptor_t& ins_src,
                                       const maybe_descriptor_t& ins_dst,
                                       const maybe_descriptor_t& ins_w, int num_weights,
                                       const maybe_descriptor_t& del_src,
                                       const maybe_descriptor_t& del_dst) {
  cuda::device_batch_arrays_t arrays;
  arrays.insert_src = array_of(ins_src);
  arrays.insert_dst = array_of(ins_dst);
  arrays.insert_weights = array_of(ins_w);
  arrays.delete_src = array_of(del_src);
  arrays.delete_dst = array_of(del_dst);
  arrays.num_weights = num_weights;
  auto out = std::make_unique<staged_handle_t>();
  // The producers ordered their writes before the graph's stream (Python exported the arrays
  // with it), so staging on that stream reads finished data.
  nb::gil_scoped_release release;
  std::shared_lock lock(h.mutex);
  std::visit(
      [&](const auto& g) {
        using G = std::decay_t<decltype(g)>;
        const auto* d = h.device_copy<G>();
        if (d == nullptr || !device_applies(h)) {
          out.reset();  // the host applies this graph's batches: no staging
          return;
        }
        out->batch = d->stage(arrays);
      },
      h.graph);
  return out;
}

/// The conversion's faults as (array, what, index, value) tuples, what in "above_int64",
/// "negative", "too_wide", "weight" (index: the row; the column follows as a fifth entry).
std::vector<std::tuple<std::string, std::string, int64_t, nb::object, int64_t>> conversion_faults(
    const staged_handle_t& s) {
  std::vector<std::tuple<std::string, std::string, int64_t, nb::object, int64_t>> out;
  std::visit(
      [&](const auto& b) {
        const auto& c = b.conversion;
        static const char* const names[] = {"insert_src", "insert_dst", "delete_src", "delete_dst"};
        auto value_of = [](const cuda::value_fault_t& f) -> nb::object {
          if (f.above_int64) return nb::cast(static_cast<uint64_t>(f.value));
          return nb::cast(f.value);
        };
        auto add = [&](const char* array, const char* what, const cuda::value_fault_t& f,
                       int64_t column) {
          if (f.index >= 0) out.emplace_back(array, what, f.index, value_of(f), column);
        };
        for (int a = 0; a < cuda::conversion_faults_t::k_arrays; ++a) {
          add(names[a], "above_int64", c.above_int64[a], -1);
          add(names[a], "negative", c.negative[a], -1);
          add(names[a], "too_wide", c.too_wide[a], -1);
        }
        add("insert_weights", "weight", c.weight, c.weight_column);
      },
      s.batch);
  return out;
}

std::pair<nb::dict, std::unique_ptr<change_log_handle_t>> apply_staged(graph_handle_t& h,
                                                                       const staged_handle_t& s,
                                                                       bool want_log,
                                                                       const execution_t& call_exec,
                                                                       bool revertible) {
  // Ctrl-C stops the apply before its write (device_graph_t::apply), as for a host batch.
  return run_interruptible(call_exec, [&](const execution_t& exec) {
    auto log = want_log ? std::make_unique<change_log_handle_t>() : nullptr;
    apply_summary_t summary;
    {
      nb::gil_scoped_release release;
      profile_context_t profiling(exec);
      const cancel_scope_t stoppable(exec.cancel);
      std::unique_lock lock(h.mutex);
      forget_undo(h);
      std::visit(
          [&](auto& g) {
            using G = std::decay_t<decltype(g)>;
            using vid_t = typename G::vertex_type;
            const auto* staged = std::get_if<cuda::staged_batch_t<vid_t>>(&s.batch);
            if (staged == nullptr || !device_applies(h)) {
              throw internal_error(
                  "Graph.apply(): a staged batch reached a graph of another id "
                  "type or without a primary device copy; this is a bug in "
                  "dyng");
            }
            change_log_t<vid_t>* log_ptr = nullptr;
            if (log) log_ptr = &log->log.template emplace<change_log_t<vid_t>>();
            summary = apply_on_device(h, g, *staged, log_ptr, revertible);
            if (log) log->graph_version = g.version();
          },
          h.graph);
    }
    return std::pair<nb::dict, std::unique_ptr<change_log_handle_t>>(summary_to_dict(summary),
                                                                     std::move(log));
  });
}

template <class F>
void with_weight_faults(const staged_handle_t& s, F&& f) {
  std::visit([&](const auto& b) { f(b.below_one.data(), b.num_weights); }, s.batch);
}

}  // namespace

void bind_device_batch(nb::module_& m) {
  nb::class_<staged_handle_t>(m, "StagedBatch",
                              "A batch converted and checked in device memory for one graph.")
      .def_prop_ro("conversion_faults", &conversion_faults,
                   "(array, what, index, value, column) of each fault the conversion found.");
  m.def("device_array_view", &device_array_view, nb::arg("source"),
        "(ptr, kind, bits, shape, strides, device, None) of a DLPack array in CUDA memory.");
  m.def(
      "cuda_pointer_device",
      [](uintptr_t pointer) {
        return cuda::device_of_pointer(reinterpret_cast<const void*>(pointer));
      },
      nb::arg("pointer"), "The device a pointer's memory is on, -1 for host or unknown memory.");
  m.def("stage_device_batch", &stage, nb::arg("graph"), nb::arg("insert_src").none(),
        nb::arg("insert_dst").none(), nb::arg("insert_weights").none(), nb::arg("num_weights"),
        nb::arg("delete_src").none(), nb::arg("delete_dst").none(),
        "Converts and checks a batch of device arrays on the graph's device; None when the "
        "graph's batches are applied by the host.");
  m.def("apply_staged", &apply_staged, nb::arg("graph"), nb::arg("staged"), nb::arg("log") = false,
        nb::arg("execution") = execution_t{}, nb::arg("revertible") = false,
        "Applies a staged batch on the graph's device; returns (summary dict, ChangeLog or None). "
        "With revertible, GraphHandle.revert() can take it back.");
  m.def(
      "sssp_validate_staged",
      [](const staged_handle_t& s, const sssp::options_t& options) {
        with_weight_faults(s, [&](const auto* faults, int k) {
          sssp::check_insertion_weights(faults, k, options);
        });
      },
      nb::arg("staged"), nb::arg("options"), "sssp_validate_batch for a staged batch.");
  m.def(
      "mosp_validate_staged",
      [](const staged_handle_t& s, const mosp::options_t& options) {
        with_weight_faults(s, [&](const auto* faults, int k) {
          mosp::check_insertion_weights(faults, k, options);
        });
      },
      nb::arg("staged"), nb::arg("options"), "mosp_validate_batch for a staged batch.");
}

}  // namespace dyng::bindings
